import { createHash, createHmac, scryptSync } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createLogger } from '../src/observability/logger.js';
import { loadConfig } from '../src/config/app-config.js';
import { CHECKSUM_SECRET_NAME, loadChecksumSecret } from '../src/database/checksum-secret.js';
import { Database } from '../src/database/database.js';
import { openDatabase } from '../src/database/connection/open-database.js';
import { hmacKey } from '../src/data/checksum.js';
import { demoProject } from '../src/demo/project.js';
import { schemaOf } from '../src/schema.js';
import { API_HOST, apiAs, type Api } from './support/api.js';
import { loginAs } from './support/auth.js';
import { createTestApplication, describeEachTarget, startTestApp, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { checksum: string } };

const ALPHA = '/customer/Alpha%20and%20Sons';

/** The canonical text of a customer row, as the (public) source defines it: each value length-prefixed. */
function customerText(name: string, balance: string, creditLimit: string): string {
  const piece = (column: string, value: string): string => `${column}\u0001string:${value.length}:${value}\u001f`;
  return piece('name', name) + piece('balance', balance) + piece('credit_limit', creditLimit);
}

const unkeyed = (text: string): string => `R:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
const keyed =
  (key: string) =>
  (text: string): string =>
    `R:${createHmac('sha256', key).update(text).digest('hex').slice(0, 16)}`;
/** The key as the README specifies it, computed here independently: scrypt, N 2^14, r 8, p 1, 32 bytes as hex. */
const scryptKey = (secret: string): string =>
  scryptSync(secret, 'tessera row checksum', 32, { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).toString('hex');
/** The key as it was: one SHA-256 of the secret (cheap to search for a human-chosen secret). */
const sha256Key = (secret: string): string =>
  createHash('sha256').update('tessera row checksum\u0000').update(secret, 'utf8').digest('hex');

/** What a caller who sees name, balance and the checksum tries: every credit limit from 0 to 20000. */
function recoverCreditLimit(row: Row, checksumOf: (text: string) => string): string | undefined {
  const balance = Number(row.balance).toFixed(4);
  for (let limit = 0; limit <= 20_000; limit++) {
    const guess = `${limit}.0000`;
    if (checksumOf(customerText(String(row.name), balance, guess)) === row['@metadata'].checksum) return guess;
  }
  return undefined;
}

async function storedSecret(t: TestApp): Promise<string> {
  const placeholder = t.dataSource.options.type === 'postgres' ? '$1' : '?';
  const rows = await t.dataSource.query<Array<{ value: string }>>(`SELECT value FROM tessera_meta WHERE name = ${placeholder}`, [
    CHECKSUM_SECRET_NAME,
  ]);
  return rows[0]!.value;
}

/** Another instance of the service on the same database (a connection of its own), optionally with a CHECKSUM_SECRET. */
async function otherInstance(t: TestApp, checksumSecret?: string): Promise<INestApplication> {
  const config =
    checksumSecret === undefined
      ? t.config
      : { ...t.config, api: { ...t.config.api, checksumSecret: loadConfig({ CHECKSUM_SECRET: checksumSecret }).api.checksumSecret } };
  return createTestApplication(config, demoProject, { logger: createLogger('silent') });
}

async function checksumVia(app: INestApplication, t: TestApp, apikey: string): Promise<string> {
  const res = await request(app.getHttpServer())
    .get(`${t.base}${ALPHA}`)
    .set('Host', API_HOST)
    .set('Authorization', `CALiveAPICreator ${apikey}:1`)
    .expect(200);
  return (res.body[0] as Row)['@metadata'].checksum;
}

describeEachTarget('checksums: a keyed MAC that hides what the caller cannot read', (target) => {
  let t: TestApp;
  let sam: Api;
  let demo: Api;

  suiteApp(target, {}, async (app) => {
    t = app;
    sam = await apiAs(t, 'sam');
    demo = await apiAs(t, 'demo');
  });

  it('does not let a Sales rep recover a hidden credit limit from the checksum (body and ETag), offline', async () => {
    const res = await sam.get(ALPHA).expect(200);
    const row = res.body[0] as Row;
    expect(row).not.toHaveProperty('credit_limit');
    expect(res.headers.etag).toBe(`"${row['@metadata'].checksum}"`);
    // The public format, unkeyed (as it was) and keyed with guessable keys: no guess matches.
    expect(recoverCreditLimit(row, unkeyed)).toBeUndefined();
    for (const guessable of ['', 'tessera', 'secret']) expect(recoverCreditLimit(row, keyed(await hmacKey(guessable)))).toBeUndefined();
    // Control: with the installation's secret (which the caller never sees) the same search finds it,
    // so the canonical text above is right and the search would have found it.
    expect(recoverCreditLimit(row, keyed(scryptKey(await storedSecret(t))))).toBe('9000.0000');
  });

  it('hides it in the txsummary too', async () => {
    const [order] = (await sam.get(`/purchaseorder?filter=${encodeURIComponent('paid = false')}&pagesize=1`).expect(200)).body as Row[];
    const res = await sam.post('/lineitem', { order_number: order!.order_number, product_number: 1, qty_ordered: 1 }).expect(201);
    const customer = (res.body.txsummary as Row[]).find((r) => (r['@metadata'] as { resource?: string }).resource === 'main:customer');
    expect(customer).toBeDefined();
    expect(customer).not.toHaveProperty('credit_limit');
    expect(recoverCreditLimit(customer!, unkeyed)).toBeUndefined();
  });

  it('keeps a random secret per installation, generated at first boot and kept in the database', async () => {
    const secret = await storedSecret(t);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const other = await startTestApp(target);
    try {
      expect(await storedSecret(other)).not.toBe(secret);
      const mine = (await demo.get('/product/2').expect(200)).body[0] as Row;
      const theirs = (await (await apiAs(other, 'demo')).get('/product/2').expect(200)).body[0] as Row;
      expect({ ...theirs, '@metadata': undefined }).toEqual({ ...mine, '@metadata': undefined }); // the same seeded values
      expect(theirs['@metadata'].checksum).not.toBe(mine['@metadata'].checksum);
    } finally {
      await other.close();
    }
  });

  it('changes whenever any column changes, hidden ones and changes made directly in the database included', async () => {
    const before = ((await sam.get(ALPHA).expect(200)).body[0] as Row)['@metadata'].checksum;
    const placeholder = t.dataSource.options.type === 'postgres' ? '$1' : '?';
    await t.dataSource.query(`UPDATE customer SET credit_limit = credit_limit + 1 WHERE name = ${placeholder}`, ['Alpha and Sons']);
    const after = ((await sam.get(ALPHA).expect(200)).body[0] as Row)['@metadata'].checksum;
    expect(after).not.toBe(before);
    await t.dataSource.query(`UPDATE customer SET credit_limit = credit_limit - 1 WHERE name = ${placeholder}`, ['Alpha and Sons']);
    expect(((await sam.get(ALPHA).expect(200)).body[0] as Row)['@metadata'].checksum).toBe(before);
  });

  it('keeps optimistic locking: a stale checksum is 409 / 4090, the current one is accepted', async () => {
    const first = (await demo.get('/customer/Charlie%20Tools').expect(200)).body[0] as Row;
    const changed = await demo
      .put('/customer/Charlie%20Tools', { '@metadata': { checksum: first['@metadata'].checksum }, credit_limit: 7001 })
      .expect(200);
    const stale = await demo.put('/customer/Charlie%20Tools', {
      '@metadata': { checksum: first['@metadata'].checksum },
      credit_limit: 7002,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errorCode).toBe(4090);
    const fresh = (changed.body.txsummary as Row[])[0]!['@metadata'].checksum;
    expect(fresh).toBe(((await demo.get('/customer/Charlie%20Tools').expect(200)).body[0] as Row)['@metadata'].checksum);
    await demo.put('/customer/Charlie%20Tools', { '@metadata': { checksum: fresh }, credit_limit: 7003 }).expect(200);
  });

  it('agrees between two instances on one database; CHECKSUM_SECRET gives another, stable value', async () => {
    const apikey = await loginAs(t, 'demo', 'Password1');
    const mine = ((await demo.get(ALPHA).expect(200)).body[0] as Row)['@metadata'].checksum;
    const configured = 'c0ffee-and-some-more-entropy-4a7f2b9d1e3c';
    const [second, third, fourth] = await Promise.all([otherInstance(t), otherInstance(t, configured), otherInstance(t, configured)]);
    try {
      expect(await checksumVia(second, t, apikey)).toBe(mine);
      const keyedByConfig = await checksumVia(third, t, apikey);
      expect(keyedByConfig).not.toBe(mine);
      expect(await checksumVia(fourth, t, apikey)).toBe(keyedByConfig);
      const row = (await demo.get(ALPHA).expect(200)).body[0] as Row;
      const text = customerText('Alpha and Sons', Number(row.balance).toFixed(4), Number(row.credit_limit).toFixed(4));
      // The configured secret is stretched with scrypt: one SHA-256 of it is not the key.
      expect(keyedByConfig).toBe(keyed(scryptKey(configured))(text));
      expect(keyedByConfig).not.toBe(keyed(sha256Key(configured))(text));
    } finally {
      await Promise.all([second, third, fourth].map((app) => app.close()));
    }
  });

  it('makes instances booting at once on an empty database agree on one secret', async () => {
    const kept = await storedSecret(t);
    const placeholder = t.dataSource.options.type === 'postgres' ? '$1' : '?';
    await t.dataSource.query(`DELETE FROM tessera_meta WHERE name = ${placeholder}`, [CHECKSUM_SECRET_NAME]);
    const sources = await Promise.all([0, 1, 2].map(() => openDatabase(t.config.database, schemaOf(demoProject))));
    try {
      const secrets = await Promise.all(sources.flatMap((source) => [0, 1].map(() => loadChecksumSecret(new Database(source), undefined))));
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0]).not.toBe(kept);
      expect(await storedSecret(t)).toBe(secrets[0]);
    } finally {
      await Promise.all(sources.map((source) => source.destroy()));
    }
  });
});
