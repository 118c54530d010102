import { runServiceToExit } from './support/service-process.js';
import { TEST_MYSQL_URL, TEST_POSTGRES_URL } from './support/test-databases.js';

/** The configured test server's URL with another user, password or database. */
function variant(serverUrl: string, change: { user?: string; password?: string; database?: string }): string {
  const url = new URL(serverUrl);
  if (change.user !== undefined) url.username = change.user;
  if (change.password !== undefined) url.password = change.password;
  if (change.database !== undefined) url.pathname = `/${change.database}`;
  return url.toString();
}

function hostPortOf(serverUrl: string, defaultPort: string): string {
  const url = new URL(serverUrl);
  return `${url.hostname}:${url.port || defaultPort}`;
}

interface Case {
  title: string;
  env: Record<string, string>;
  line: RegExp;
}

const cases: Case[] = [
  {
    title: 'PostgreSQL host that refuses connections',
    env: { DATABASE_URL: 'postgres://tessera:pw-not-shown@127.0.0.1:1/shop', DB_ACQUIRE_TIMEOUT_MS: '2000' },
    line: /^Cannot reach the database server at 127\.0\.0\.1:1 \(database "shop"\): the connection was refused\. Check that the server is running and that DATABASE_URL names the right host and port\.$/,
  },
  {
    title: 'MySQL host whose name is not known',
    env: { DATABASE_URL: 'mysql://tessera:pw-not-shown@no-such-host.invalid:3306/shop', DB_ACQUIRE_TIMEOUT_MS: '2000' },
    line: /^Cannot reach the database server at no-such-host\.invalid:3306 \(database "shop"\): the host name is not known\./,
  },
  {
    // A path under a file: its folder cannot be made.
    title: 'SQLite file whose folder cannot be made',
    env: { DATABASE_URL: 'sqlite:/dev/null/tessera.sqlite' },
    line: /^Cannot open the SQLite database \/dev\/null\/tessera\.sqlite: .*\. Check that the file and its folder are readable and writable by this user, or set DATABASE_URL to another file\.$/,
  },
];

if (TEST_MYSQL_URL) {
  const where = hostPortOf(TEST_MYSQL_URL, '3306').replace(/\./g, '\\.');
  cases.push(
    {
      title: 'MariaDB/MySQL database that does not exist',
      env: { DATABASE_URL: variant(TEST_MYSQL_URL, { database: 'tessera_no_such_db' }) },
      line: new RegExp(
        `^Database "tessera_no_such_db" does not exist on ${where}\\. Create it: CREATE DATABASE tessera_no_such_db CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;$`,
      ),
    },
    {
      title: 'MariaDB/MySQL user that does not exist',
      env: { DATABASE_URL: variant(TEST_MYSQL_URL, { user: 'tessera_no_such_user', password: 'pw-not-shown' }) },
      line: new RegExp(
        `^Access denied to database "[^"]+" on ${where} for user "tessera_no_such_user"\\. Check the user name and password in DATABASE_URL`,
      ),
    },
  );
}
if (TEST_POSTGRES_URL) {
  const where = hostPortOf(TEST_POSTGRES_URL, '5432').replace(/\./g, '\\.');
  cases.push(
    {
      title: 'PostgreSQL database that does not exist',
      env: { DATABASE_URL: variant(TEST_POSTGRES_URL, { database: 'tessera_no_such_db' }) },
      line: new RegExp(`^Database "tessera_no_such_db" does not exist on ${where}\\. Create it: CREATE DATABASE tessera_no_such_db;$`),
    },
    {
      // Trust authentication lets any existing role in: a role that does not exist is refused.
      title: 'PostgreSQL role that does not exist',
      env: { DATABASE_URL: variant(TEST_POSTGRES_URL, { user: 'tessera_no_such_role', password: 'pw-not-shown' }) },
      line: new RegExp(
        `^Access denied to database "[^"]+" on ${where} for user "tessera_no_such_role"\\. Check the user name and password in DATABASE_URL`,
      ),
    },
  );
}

describe('a database the service cannot use at boot', () => {
  it.each(cases.map((c) => [c.title, c] as const))(
    '%s: one plain line on stderr naming host, port and database, with the fix; exit 1',
    async (_title, c) => {
      const run = await runServiceToExit(c.env);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(c.line)]);
      expect(run.stdout).not.toMatch(/listening|"level"/);
      expect(run.stderr + run.stdout).not.toMatch(/pw-not-shown|ER_BAD_DB_ERROR|3D000|ECONNREFUSED|ENOTFOUND|28P01|28000|ER_ACCESS/);
    },
  );
});
