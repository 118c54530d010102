import { relative, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { parseDatabaseUrl } from '../config/database-url.js';
import { serviceOrigin } from '../config/hosts.js';

/** What the generator just did, as its closing lines need it. */
export interface GeneratedRun {
  /** --demo: the demo was put back. */
  demo: boolean;
  /** --name (not with --demo). */
  name?: string;
  /** --from: the URL the project was read from, password included (never printed). */
  from?: string;
  /** The folder written (absolute). */
  out: string;
  /** The checkout (where `npm start` runs). */
  root: string;
}

/** The shell word for `value`: single-quoted unless it is plain (a `***` unquoted would be a glob in a command). */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The generator's last lines: the exact command that starts the project just written (its
 * DATABASE_URL with the password masked) and the URLs of the console, the API and Swagger UI.
 * `env` is the environment `npm start` would read next to it (the same shell, the same `.env`), so
 * PORT, HOST, PUBLIC_URL and API_* come out as the service will use them, and an environment the
 * service would refuse (a misspelled variable, a bad value) is said now rather than at the start.
 */
export function closingLines(run: GeneratedRun, env: Record<string, string | undefined>): string[] {
  const lines: string[] = [];
  const database = run.from === undefined ? undefined : parseDatabaseUrl(run.from);
  const served = resolve(run.root, 'src', 'project');
  if (resolve(run.out) !== served) {
    lines.push(
      `npm start serves src/project/, not ${relative(run.root, run.out)}: move the files there first (or generate without --out).`,
    );
  }
  let config;
  try {
    config = loadConfig(database ? { ...env, DATABASE_URL: run.from } : env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    lines.push(`npm start would refuse this environment as it is; fix it first:\n${error.problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  const origin = config ? serviceOrigin(config.http) : 'http://127.0.0.1:8080';
  const name = run.demo ? 'demo' : run.name!;
  const base = `${origin}/rest/${config?.api.account ?? 'default'}/${config?.api.project ?? name}/${config?.api.versions?.[0] ?? 'v1'}`;
  if (run.demo) lines.push('The demo is back.');
  if (database) {
    lines.push(`Start it:          DATABASE_URL=${shellWord(database.safeUrl)} npm start`);
    if (database.safeUrl.includes(':***@'))
      lines.push('                   (*** stands for the database password, which is never printed: put it back)');
  } else {
    lines.push(
      `Start it:          npm start${config ? `   (on ${config.database.safeUrl}; DATABASE_URL=… npm start for another database)` : ''}`,
    );
  }
  lines.push(
    `Open the console:  ${origin}/admin/   (sign in as ${config?.auth.adminUser ?? 'admin'}; the first start on a database prints ` +
      'its generated password, unless TESSERA_ADMIN_PASSWORD is set)',
  );
  lines.push(`The API:           ${base}   (Swagger UI: ${base}/@docs/ui)`);
  return lines;
}
