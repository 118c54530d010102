import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';
import { freePort } from './free-port.js';

/** The slapd binary for the LDAP suite, found by the global setup (or set by hand); empty when there is none. */
export const TEST_SLAPD = process.env.TEST_SLAPD || undefined;

const SCHEMA_DIRS = ['/etc/ldap/schema', '/etc/openldap/schema', '/usr/local/etc/openldap/schema'];
const MODULE_DIRS = ['/usr/lib/ldap', '/usr/lib64/openldap', '/usr/lib/openldap', '/usr/libexec/openldap'];

export interface Slapd {
  url: string;
  suffix: string;
  /** Adds entries as the directory's root. */
  add(entries: Array<{ dn: string; attributes: Record<string, string | string[]> }>): Promise<void>;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function config(dir: string, suffix: string, rootDn: string, rootPassword: string): string {
  const schema = SCHEMA_DIRS.find((d) => existsSync(join(d, 'core.schema')));
  if (!schema) throw new Error(`slapd: no core.schema in ${SCHEMA_DIRS.join(', ')}`);
  // Debian builds the backends as modules; other builds may have mdb built in.
  const modules = MODULE_DIRS.find((d) => existsSync(join(d, 'back_mdb.la')) || existsSync(join(d, 'back_mdb.so')));
  return [
    ...['core', 'cosine', 'inetorgperson'].map((name) => `include ${join(schema, `${name}.schema`)}`),
    `pidfile ${join(dir, 'slapd.pid')}`,
    // Like directories that take a DN with an empty password as an anonymous bind and answer
    // "success" (RFC 4513 5.1.2), so the suite shows that the provider refuses empty passwords itself.
    'allow bind_anon_dn',
    ...(modules ? [`modulepath ${modules}`, 'moduleload back_mdb'] : []),
    'database mdb',
    'maxsize 10485760',
    `suffix "${suffix}"`,
    `rootdn "${rootDn}"`,
    `rootpw ${rootPassword}`,
    `directory ${join(dir, 'db')}`,
    '',
  ].join('\n');
}

/**
 * Starts a throwaway OpenLDAP server on a loopback port, with its configuration and
 * database in a temporary folder (removed by `stop`), and an empty `dc=example,dc=org`.
 */
export async function startSlapd(): Promise<Slapd> {
  if (!TEST_SLAPD) throw new Error('slapd is not installed');
  const suffix = 'dc=example,dc=org';
  const rootDn = `cn=admin,${suffix}`;
  const rootPassword = 'slapd-test-root';
  const dir = mkdtempSync(join(tmpdir(), 'tessera-slapd-'));
  mkdirSync(join(dir, 'db'));
  writeFileSync(join(dir, 'slapd.conf'), config(dir, suffix, rootDn, rootPassword));
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  // -d keeps slapd in the foreground, so it is this child process and stops with it.
  const child: ChildProcess = spawn(TEST_SLAPD, ['-f', join(dir, 'slapd.conf'), '-h', `${url}/`, '-d', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(kill);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  for (let waited = 0; !(await accepts(port)); waited += 50) {
    if (child.exitCode !== null || waited > 10_000) {
      await stop();
      throw new Error(`slapd did not start on ${url}: ${stderr.trim() || `exit code ${child.exitCode}`}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  const add: Slapd['add'] = async (entries) => {
    const client = new Client({ url, timeout: 5000, connectTimeout: 5000 });
    try {
      await client.bind(rootDn, rootPassword);
      for (const entry of entries) await client.add(entry.dn, entry.attributes);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  };
  await add([{ dn: suffix, attributes: { objectClass: ['dcObject', 'organization'], dc: 'example', o: 'Example' } }]);
  return { url, suffix, add, stop };
}
