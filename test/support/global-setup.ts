import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** slapd on the usual paths or on PATH: the LDAP provider suite needs a real directory server. */
function findSlapd(): string | undefined {
  const dirs = ['/usr/sbin', '/usr/local/sbin', '/usr/libexec', ...(process.env.PATH ?? '').split(delimiter)];
  return dirs.map((dir) => join(dir, 'slapd')).find((path) => existsSync(path));
}

/**
 * Says once, up front, which suites will be skipped and why. Also finds slapd for the LDAP
 * suite and hands it on as TEST_SLAPD (the test workers inherit this environment).
 */
export default function globalSetup(_global: unknown, project?: { testPathIgnorePatterns?: string[] }): void {
  const lines: string[] = [];
  if (!process.env.TEST_MYSQL_URL) lines.push('TEST_MYSQL_URL is not set: MariaDB/MySQL end-to-end suites are skipped.');
  if (!process.env.TEST_POSTGRES_URL) lines.push('TEST_POSTGRES_URL is not set: PostgreSQL end-to-end suites are skipped.');
  // The suites jest.config.js leaves out of a run that is not the whole matrix (PROCESS_LIFE_SUITES there).
  const leftOut = (project?.testPathIgnorePatterns ?? []).flatMap((pattern) => /\/test\/([\w-]+)\\\.e2e-spec/.exec(pattern)?.[1] ?? []);
  if (leftOut.length > 0)
    lines.push(`TEST_MATRIX is not all: the process-life suites (${leftOut.join(', ')}) are left to npm run test:all.`);
  process.env.TEST_SLAPD ||= findSlapd() ?? '';
  if (!process.env.TEST_SLAPD)
    lines.push('slapd is not installed: the LDAP provider end-to-end suite is skipped (apt-get install slapd; .ci/run does).');
  const chromium = process.env.TEST_CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(chromium))
    lines.push(`${chromium} is missing: the console browser suite is skipped (apt-get install chromium; .ci/run does).`);
  if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
}
