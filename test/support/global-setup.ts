/** Says once, up front, which databases the end-to-end suites will skip and why. */
export default function globalSetup(): void {
  const lines: string[] = [];
  if (!process.env.TEST_MYSQL_URL) lines.push('TEST_MYSQL_URL is not set: MariaDB/MySQL end-to-end suites are skipped.');
  if (!process.env.TEST_POSTGRES_URL) lines.push('TEST_POSTGRES_URL is not set: PostgreSQL end-to-end suites are skipped.');
  if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
}
