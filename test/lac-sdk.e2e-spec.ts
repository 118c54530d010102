/**
 * The real LAC Node SDK (npm caliveapicreator 1.3.8), unchanged, in this process, against the
 * built service: its README's flow (connect, get, post, GET → change → PUT, delete), connected
 * with a user and password as the README does, and with an API key. What it sends and reads:
 * /work/helper-notes/lac-findings.md.
 *
 * The SDK posts its login without a Content-Type: read as JSON, as LAC did (issue 16 item 7).
 * Tests that wait on other issue-16 items (they fail until those land):
 * - "GET → change → PUT …" and "… every demo resource round-trips": item 4 (a PUT of the whole row read,
 *   with its unchanged derived `balance`); the custom resources in that list: items 1–3.
 */
import { lacSdk, settled, type LacApi } from './support/lac-sdk.js';
import { demoApiKey, startLacService, type LacService } from './support/lac-service.js';
import { testTargets } from './support/test-app.js';

interface Row {
  '@metadata': { href: string; checksum: string; next_batch?: string };
  [column: string]: unknown;
}
interface TxSummaryRow {
  '@metadata': { href: string; verb: string; checksum?: string };
  [column: string]: unknown;
}
interface WriteResult {
  statusCode: number;
  txsummary: TxSummaryRow[];
}

const rowsOf = (answer: unknown): Row[] => (answer as Row[]).filter((row) => row['@metadata'].next_batch === undefined);
const byName = (name: string) => ({ sysfilter: `equal(name:'${name}')` });

const CONNECTIONS = ['user and password', 'an API key'] as const;

for (const target of testTargets()) {
  describe(`the LAC Node SDK, unchanged [${target.name}]`, () => {
    let lac: LacService;
    beforeAll(async () => {
      lac = await startLacService(target);
    }, 180_000);
    afterAll(() => (lac as LacService | undefined)?.stop());

    describe.each(CONNECTIONS)('connected with %s', (connection) => {
      let api: LacApi;
      /** Names of this connection's rows, so that the two connections do not meet. */
      const name = (what: string) => `SDK ${connection === 'an API key' ? 'key' : 'pw'} ${what}`;

      beforeAll(async () => {
        api = connection === 'an API key' ? lacSdk.connect(lac.url, await demoApiKey(lac)) : lacSdk.connect(lac.url, 'demo', 'Password1');
        await settled(api.connection, 'connect');
      });

      it('connect: has a key the service knows', async () => {
        expect(api.apiKey).toMatch(/^\S{20,}$/);
        const res = await fetch(`${lac.url}/customer?pagesize=1`, {
          headers: { Authorization: `CALiveAPICreator ${String(api.apiKey)}:1` },
        });
        expect(res.status).toBe(200);
      });

      it('get: the rows, by plain and by prefixed name, with filters and paging', async () => {
        const all = rowsOf(await settled(api.endpoint('customer').get(), 'GET customer'));
        expect(all.map((r) => r.name)).toContain('Alpha and Sons');
        const prefixed = rowsOf(await settled(api.endpoint('main:customer').get(), 'GET main:customer'));
        expect(prefixed.map((r) => r.name)).toEqual(all.map((r) => r.name));
        const page = (await settled(api.endpoint('customer').get({ pagesize: 2 }), 'GET customer?pagesize=2')) as Row[];
        expect(page).toHaveLength(3);
        expect(page[2]!['@metadata'].next_batch).toContain('offset=2');
        const one = rowsOf(await settled(api.endpoint('customer').get(byName('Alpha and Sons')), 'GET by sysfilter'));
        expect(one.map((r) => r.name)).toEqual(['Alpha and Sons']);
        const byKey = rowsOf(await settled(api.endpoint('customer/Alpha%20and%20Sons').get(), 'GET by key'));
        expect(byKey).toEqual(one);
      });

      it('post: inserts, answers the transaction summary, and a GET shows the row', async () => {
        const answer = (await settled(api.endpoint('customer').post({ name: name('Alpha'), credit_limit: '1234' }), 'POST')) as WriteResult;
        expect(answer.statusCode).toBe(201);
        expect(answer.txsummary).toEqual([
          expect.objectContaining({ '@metadata': expect.objectContaining({ verb: 'INSERT' }), name: name('Alpha'), credit_limit: 1234 }),
        ]);
        const stored = rowsOf(await settled(api.endpoint('customer').get(byName(name('Alpha'))), 'GET'));
        expect(stored).toHaveLength(1);
        expect(stored[0]!.credit_limit).toBe(1234);
      });

      it('GET → change → PUT through the row’s href: the answer and a later GET have the new value', async () => {
        await settled(api.endpoint('customer').post({ name: name('Beta'), credit_limit: '100' }), 'POST');
        const [row] = rowsOf(await settled(api.endpoint('customer').get(byName(name('Beta'))), 'GET'));
        row!.credit_limit = 4321;
        const answer = (await settled(api.endpoint(row!['@metadata'].href).put(row), 'PUT of the row read')) as WriteResult;
        expect(answer.statusCode).toBe(200);
        expect(answer.txsummary).toEqual([
          expect.objectContaining({ '@metadata': expect.objectContaining({ verb: 'UPDATE' }), name: name('Beta'), credit_limit: 4321 }),
        ]);
        const [after] = rowsOf(await settled(api.endpoint('customer').get(byName(name('Beta'))), 'GET'));
        expect(after!.credit_limit).toBe(4321);
        expect(after!['@metadata'].checksum).not.toBe(row!['@metadata'].checksum);
      });

      it('delete through the row’s href with its checksum: gone afterwards; a stale checksum is refused', async () => {
        await settled(api.endpoint('customer').post({ name: name('Gamma'), credit_limit: '1' }), 'POST');
        const [row] = rowsOf(await settled(api.endpoint('customer').get(byName(name('Gamma'))), 'GET'));
        const stale = { '@metadata': { checksum: 'R:0000000000000000' } };
        await expect(settled(api.endpoint(row!['@metadata'].href).del(stale), 'DELETE, stale checksum')).rejects.toThrow(
          /"errorCode":409\d/,
        );
        const answer = (await settled(api.endpoint(row!['@metadata'].href).del(row!), 'DELETE')) as WriteResult;
        expect(answer.txsummary).toEqual([
          expect.objectContaining({ '@metadata': expect.objectContaining({ verb: 'DELETE' }), name: name('Gamma') }),
        ]);
        expect(rowsOf(await settled(api.endpoint('customer').get(byName(name('Gamma'))), 'GET'))).toEqual([]);
      });

      it('metaapitest.js: @rules answers the entityName, columnName and bestName it prints; @apioptions answers too', async () => {
        const rules = (await settled(api.endpoint('@rules').get(), 'GET @rules')) as Array<Record<string, unknown>>;
        expect(rules.length).toBeGreaterThan(0);
        for (const rule of rules) {
          expect(typeof rule.entityName).toBe('string');
          expect(typeof rule.bestName).toBe('string');
          expect(rule).toHaveProperty('columnName');
        }
        expect(rules).toContainEqual(
          expect.objectContaining({ entityName: 'customer', columnName: 'balance', bestName: 'sum customer.balance' }),
        );
        const options = (await settled(api.endpoint('@apioptions').get(), 'GET @apioptions')) as Record<string, { name: string }>;
        expect(options['1']!.name).toBe('Aggregate Default Override');
      });

      it('every demo resource round-trips: its first row, read and PUT back as it is', async () => {
        const listed = (await settled(api.endpoint('@resources').get(), 'GET @resources')) as Array<{
          name: string;
          resource_type: string;
          readOnly?: boolean;
        }>;
        // Tables and custom resources that take a PUT: not a view, nor what the project's code or SQL answers
        // (function resources, SQL resources, procedures: their rows are no objects to send back).
        const resources = listed.filter((r) => (r.resource_type === 'TableBased' || r.resource_type === 'Custom') && r.readOnly !== true);
        expect(resources.length).toBeGreaterThanOrEqual(6);
        const refused: string[] = [];
        for (const { name: resource } of resources) {
          const [row] = rowsOf(await settled(api.endpoint(resource).get({ pagesize: 1 }), `GET ${resource}`));
          if (!row) continue;
          try {
            const answer = (await settled(api.endpoint(row['@metadata'].href).put(row), `PUT ${resource}`)) as WriteResult;
            expect(answer.statusCode).toBe(200);
          } catch (error) {
            refused.push((error as Error).message);
          }
        }
        expect(refused).toEqual([]);
      });
    });
  });
}

/** The SDK README's first lines as written (issue 27 item 9): `api.endpoint('demo:customer')`, with RESOURCE_PREFIX=demo. */
for (const target of testTargets()) {
  describe(`the LAC Node SDK's README, RESOURCE_PREFIX=demo [${target.name}]`, () => {
    let lac: LacService;
    beforeAll(async () => {
      lac = await startLacService(target, { RESOURCE_PREFIX: 'demo' });
    }, 180_000);
    afterAll(() => (lac as LacService | undefined)?.stop());

    it("connect with demo / Password1, then api.endpoint('demo:customer').get()", async () => {
      const api = lacSdk.connect(lac.url, 'demo', 'Password1');
      await settled(api.connection, 'connect');
      const customers = rowsOf(await settled(api.endpoint('demo:customer').get(), 'GET demo:customer'));
      expect(customers.map((r) => r.name)).toContain('Alpha and Sons');
      const plain = rowsOf(await settled(api.endpoint('customer').get(), 'GET customer'));
      expect(customers).toEqual(plain);
      // The demo's prefix is demo now: main: names nothing.
      const res = await fetch(`${lac.url}/main:customer`, { headers: { Authorization: `CALiveAPICreator ${String(api.apiKey)}:1` } });
      expect(res.status).toBe(404);
    });
  });
}
