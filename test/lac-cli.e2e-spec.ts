/**
 * The real LAC command-line client (npm liveapicreator-cli 5.2.2), unchanged, against the built
 * service: every command issue 16 lists. What each command sends and reads:
 * /work/helper-notes/lac-findings.md (summary in the README's LAC clients section when merged).
 *
 * Tests that wait on other issue-16 items (they fail until those land):
 * - "put -f of a file written by get -j": item 4 (round trip: unchanged derived `balance` accepted).
 * - "describe tables", "describe tables/customer", "describe resources", "describe views/procedures/functions",
 *   "schema list", "schema export --prefix main": item 6 (meta shapes: prefix/entity/@metadata.href, primaryKeyColumns,
 *   resource_type/apiVersion, @views/@procedures/@functions (the demo's view; its routine on MariaDB and PostgreSQL), @schema/<prefix>).
 * - "describe resources lists the custom resources", "get Customers prints orders nested": items 1, 2, 6.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LacCli, tableRows } from './support/lac-cli.js';
import { demoApiKey, startLacService, type LacService } from './support/lac-service.js';
import { testTargets } from './support/test-app.js';
import { demoRules } from '../src/demo/rules.js';

/** The demo's tables, as the CLI lists them. */
const DEMO_TABLES = [
  'customer',
  'product',
  'employee',
  'purchaseorder',
  'lineitem',
  'purchaseorder_audit',
  'payment',
  'payment_allocation',
];

interface Row {
  '@metadata'?: { href?: string; checksum?: string; next_batch?: string };
  [column: string]: unknown;
}

/** The service's own answer, read without the CLI, to check what the CLI did. */
async function directGet(lac: LacService, apiKey: string, path: string): Promise<Row[]> {
  const res = await fetch(`${lac.url}/${path}`, { headers: { Authorization: `CALiveAPICreator ${apiKey}:1` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as Row[] | Row;
  return Array.isArray(body) ? body : [body];
}

const ALPHA = 'Alpha and Sons';
const ALPHA_KEY = encodeURIComponent(ALPHA);

for (const target of testTargets()) {
  describe(`the LAC command-line client, unchanged [${target.name}]`, () => {
    let lac: LacService;
    let apiKey: string;
    const cli = new LacCli();
    const lacRun = (...args: string[]) => cli.run(args);

    beforeAll(async () => {
      lac = await startLacService(target);
      apiKey = await demoApiKey(lac);
      await cli.login(lac.url);
    }, 180_000);
    afterAll(async () => {
      cli.cleanup();
      await (lac as LacService | undefined)?.stop();
    });

    it('login: reads @license without a token, logs in and keeps a key that has not expired', async () => {
      const user = new LacCli();
      try {
        const run = await user.run(['login', lac.url, '-u', 'demo', '-p', 'Password1']);
        expect(run.code).toBe(0);
        expect(run.stdout).toContain('This server licensed to: Tessera contributors license_type: Apache-2.0');
        expect(run.stdout).toContain('License will expire: never');
        const expires = /Login successful, this API key will expire on: (\S+)/.exec(run.stdout)?.[1];
        expect(Date.parse(expires ?? '')).toBeGreaterThan(Date.now());
        const saved = readdirSync(join(user.home, '.liveapicreator')).filter((f) => f !== 'currentServer.txt');
        expect(saved).toHaveLength(1);
        const login = JSON.parse(readFileSync(join(user.home, '.liveapicreator', saved[0]!), 'utf8')) as {
          url: string;
          loginInfo: { apikey: string };
        };
        expect(login.url).toBe(lac.url);
        // The key it kept works on the service.
        expect((await directGet(lac, login.loginInfo.apikey, 'customer?pagesize=1')).length).toBeGreaterThan(0);
        // A wrong password is reported, and nothing is kept.
        const wrong = new LacCli();
        try {
          const refused = await wrong.run(['login', lac.url, '-u', 'demo', '-p', 'not-the-password']);
          expect(refused.stdout).toMatch(/Login failed: \S/);
          expect(existsSync(join(wrong.home, '.liveapicreator', 'currentServer.txt'))).toBe(false);
        } finally {
          wrong.cleanup();
        }
      } finally {
        user.cleanup();
      }
    });

    it('get -z: prints one line per row, "more..." and the row count', async () => {
      const run = await lacRun('get', 'customer', '-z', '2');
      expect(run.stderr).toBe('');
      const lines = run.stdout.split('\n');
      const rows = lines.filter((line) => line.startsWith('customer/'));
      expect(rows).toHaveLength(2);
      const expected = await directGet(lac, apiKey, 'customer?pagesize=2');
      expect(rows[0]).toContain(`customer/${encodeURIComponent(String(expected[0]!.name))} name:${String(expected[0]!.name)}`);
      expect(lines).toContain('more...');
      expect(run.stdout).toMatch(/# top-level objects: 2\s/);
    });

    it('get -k: one row by its key, given escaped or as it is', async () => {
      for (const key of [ALPHA_KEY, ALPHA]) {
        const run = await lacRun('get', 'customer', '-k', key);
        expect(run.stdout).toContain(`customer/${ALPHA_KEY} name:${ALPHA} balance:`);
        expect(run.stdout).toMatch(/# top-level objects: 1\s/);
      }
    });

    it('get -f: a sysfilter (the help example less(balance:1000))', async () => {
      const rows = (await cli.json(['get', 'customer', '-f', 'less(balance:1000)', '-z', '100'])) as Row[];
      const customers = rows.filter((r) => r.name !== undefined);
      expect(customers.length).toBeGreaterThan(0);
      for (const row of customers) expect(Number(row.balance)).toBeLessThan(1000);
      const all = await directGet(lac, apiKey, 'customer?pagesize=100');
      expect(customers.map((r) => r.name)).toEqual(all.filter((r) => Number(r.balance) < 1000).map((r) => r.name));
      const text = await lacRun('get', 'customer', '-f', 'less(balance:1000)', '-z', '3');
      expect(text.stdout).not.toContain('Error');
      expect(text.stdout.split('\n').filter((l) => l.startsWith('customer/'))).toHaveLength(3);
    });

    it('get -s: the help example sysorder (balance,name desc)', async () => {
      const text = await lacRun('get', 'customer', '-s', '(balance,name desc)', '-z', '100');
      expect(text.stdout).not.toContain('Error');
      const rows = ((await cli.json(['get', 'customer', '-s', '(balance,name desc)', '-z', '100'])) as Row[]).filter(
        (r) => r.name !== undefined,
      );
      // The same order as the contract's own form of it.
      const expected = await directGet(lac, apiKey, `customer?pagesize=100&sysorder=${encodeURIComponent('(balance:asc,name:desc)')}`);
      expect(rows.length).toBeGreaterThan(3);
      expect(rows.map((r) => r.name)).toEqual(expected.filter((r) => r.name !== undefined).map((r) => r.name));
    });

    it("get -s: the sort modifiers of LAC's docs, (name:null_first) and (name:desc_lc,balance:null_last)", async () => {
      for (const sort of ['(name:null_first)', '(name:desc_lc,balance:null_last)']) {
        const text = await lacRun('get', 'customer', '-s', sort, '-z', '100');
        expect(text.stdout).not.toContain('Error');
        const rows = ((await cli.json(['get', 'customer', '-s', sort, '-z', '100'])) as Row[]).filter((r) => r.name !== undefined);
        const expected = await directGet(lac, apiKey, `customer?pagesize=100&sysorder=${encodeURIComponent(sort)}`);
        expect(rows.length).toBeGreaterThan(3);
        expect(rows.map((r) => r.name)).toEqual(expected.filter((r) => r.name !== undefined).map((r) => r.name));
      }
    });

    it('get -j: writes the rows to a file', async () => {
      const file = join(cli.home, 'alpha-get.json');
      const run = await lacRun('get', 'customer', '-k', ALPHA_KEY, '-j', file);
      expect(run.stdout).toContain(`data has been exported to file: ${file}`);
      const rows = JSON.parse(readFileSync(file, 'utf8')) as Row[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        name: ALPHA,
        '@metadata': { href: `${lac.url}/customer/${ALPHA_KEY}`, checksum: expect.any(String) },
      });
    });

    it('post -j and -f: inserts, prints the transaction summary', async () => {
      const run = await lacRun('post', 'customer', '-j', '{"name":"Zed Cli One","credit_limit":1000}');
      expect(run.stdout).toContain('I customer/Zed%20Cli%20One name:Zed Cli One balance:0 credit_limit:1000');
      expect(run.stdout).toMatch(/# objects touched: 1\s/);
      const file = join(cli.home, 'post.json');
      writeFileSync(file, JSON.stringify({ name: 'Zed Cli Two', credit_limit: 2000 }));
      const fromFile = await lacRun('post', 'customer', '-f', file);
      expect(fromFile.stdout).toContain('I customer/Zed%20Cli%20Two name:Zed Cli Two');
      const stored = await directGet(lac, apiKey, `customer?sysfilter=${encodeURIComponent("like(name:'Zed Cli%')")}`);
      expect(stored.map((r) => [r.name, Number(r.credit_limit)])).toEqual([
        ['Zed Cli One', 1000],
        ['Zed Cli Two', 2000],
      ]);
    });

    it("post -j: the CLI README's example, balance included, is 201 (Aggregate Default Override off: a sent aggregate is ignored)", async () => {
      const run = await lacRun('post', 'customer', '-j', '{ "name": "new posted record","balance": 0,"credit_limit": 9000 }');
      expect(run.stdout).toContain('I customer/new%20posted%20record name:new posted record balance:0');
      const other = await lacRun('post', 'customer', '-j', '{ "name": "owing posted record","balance": 500,"credit_limit": 9000 }');
      expect(other.stdout).toContain('I customer/owing%20posted%20record name:owing posted record balance:0');
      for (const name of ['new%20posted%20record', 'owing%20posted%20record']) {
        expect((await directGet(lac, apiKey, `customer/${name}`))[0]).toMatchObject({ balance: 0, credit_limit: 9000 });
      }
    });

    it('put -j: updates by the key in the body, and by -k', async () => {
      await lacRun('post', 'customer', '-j', '{"name":"Zed Cli Put","credit_limit":100}');
      const byBody = await lacRun('put', 'customer', '-j', '{"@metadata":{"checksum":"override"},"name":"Zed Cli Put","credit_limit":200}');
      expect(byBody.stdout).toContain('U customer/Zed%20Cli%20Put name:Zed Cli Put balance:0 credit_limit:200');
      const byKey = await lacRun(
        'put',
        'customer',
        '-k',
        'Zed%20Cli%20Put',
        '-j',
        '{"@metadata":{"checksum":"override"},"credit_limit":300}',
      );
      expect(byKey.stdout).toContain('U customer/Zed%20Cli%20Put name:Zed Cli Put balance:0 credit_limit:300');
      expect((await directGet(lac, apiKey, 'customer/Zed%20Cli%20Put'))[0]!.credit_limit).toBe(300);
    });

    it('put -f of a file written by get -j, one value changed (round trip)', async () => {
      const file = join(cli.home, 'alpha-round-trip.json');
      await lacRun('get', 'customer', '-k', ALPHA_KEY, '-j', file);
      const rows = JSON.parse(readFileSync(file, 'utf8')) as Row[];
      rows[0]!.credit_limit = 9876;
      writeFileSync(file, JSON.stringify(rows, null, 2));
      const run = await lacRun('put', 'customer', '-f', file);
      // The printed line stops at 80 columns, before credit_limit: the stored row shows the change.
      expect(run.stdout).not.toContain('Error');
      expect(run.stdout).toContain(`U customer/${ALPHA_KEY} name:${ALPHA}`);
      expect((await directGet(lac, apiKey, `customer/${ALPHA_KEY}`))[0]!.credit_limit).toBe(9876);
    });

    it('delete -k -c: with the checksum read, and with override', async () => {
      await lacRun('post', 'customer', '-j', '{"name":"Zed Cli Del1","credit_limit":1}');
      await lacRun('post', 'customer', '-j', '{"name":"Zed Cli Del2","credit_limit":1}');
      const checksum = (await directGet(lac, apiKey, 'customer/Zed%20Cli%20Del1'))[0]!['@metadata']!.checksum!;
      const withChecksum = await lacRun('delete', 'customer', '-k', 'Zed%20Cli%20Del1', '-c', checksum);
      expect(withChecksum.stdout).toContain('D customer/Zed%20Cli%20Del1 name:Zed Cli Del1');
      expect(withChecksum.stdout).toMatch(/# objects deleted: 1 - # objects touched: 1\s/);
      const overridden = await lacRun('delete', 'customer', '-k', 'Zed%20Cli%20Del2', '-c', 'override');
      expect(overridden.stdout).toContain('D customer/Zed%20Cli%20Del2 name:Zed Cli Del2');
      const gone = await lacRun('get', 'customer', '-f', "like(name:'Zed Cli Del%')");
      expect(gone.stdout).toContain('No rows returned');
      // A stale checksum is refused, and said so.
      await lacRun('post', 'customer', '-j', '{"name":"Zed Cli Del3","credit_limit":1}');
      const stale = await lacRun('delete', 'customer', '-k', 'Zed%20Cli%20Del3', '-c', 'R:0000000000000000');
      expect(stale.stdout).toMatch(/Error: \S/);
      expect(await directGet(lac, apiKey, 'customer/Zed%20Cli%20Del3')).toHaveLength(1);
    });

    it('describe license and serverinfo: one table of their fields', async () => {
      const license = await lacRun('describe', 'license');
      expect(license.stderr).toBe('');
      const [licenseHead, , licenseValues] = license.stdout.split('\n');
      expect(licenseHead!.split(/\s{2,}/)).toEqual(['company', 'license_type', 'license_expiration']);
      expect(licenseValues).toMatch(/^Tessera contributors\s+Apache-2\.0\s+/);
      const info = await lacRun('describe', 'serverinfo');
      expect(info.stderr).toBe('');
      const [infoHead, , infoValues] = info.stdout.split('\n');
      expect(infoHead).toMatch(/^name\s+version\s/);
      expect(infoValues).toMatch(/^Tessera\s+\d+\.\d+\.\d+\s/);
      expect(infoValues).toContain(target.database);
    });

    it('describe tables: each table with its prefix and name', async () => {
      const run = await lacRun('describe', 'tables');
      expect(run.stderr).toBe('');
      const rows = tableRows(run.stdout);
      for (const table of DEMO_TABLES) {
        expect(rows).toContainEqual(['main', table]);
      }
      expect(run.stdout).toMatch(new RegExp(`# Tables: ${DEMO_TABLES.length}\\s`));
    });

    it('describe tables/customer: its columns, the key marked', async () => {
      const run = await lacRun('describe', 'tables/customer');
      expect(run.stderr).toBe('');
      const rows = tableRows(run.stdout);
      expect(rows).toContainEqual(['name', 'string', '30', '*']);
      expect(rows).toContainEqual(['balance', 'decimal']);
      expect(rows).toContainEqual(['credit_limit', 'decimal']);
    });

    it('describe resources: each resource with its type, version, name and href (no crash)', async () => {
      const run = await lacRun('describe', 'resources');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const rows = tableRows(run.stdout);
      expect(rows).toContainEqual(['TableBased', 'v1', 'customer', `${lac.url}/customer`]);
      // The demo's view is listed with the tables' resources.
      expect(rows).toContainEqual(['TableBased', 'v1', 'customer_summary', `${lac.url}/customer_summary`]);
    });

    it('describe resources lists the custom resources', async () => {
      const rows = tableRows((await lacRun('describe', 'resources')).stdout);
      expect(rows).toContainEqual(['Custom', 'v1', 'Customers', `${lac.url}/Customers`]);
      expect(rows).toContainEqual(['Custom', 'v1', 'OrderEntry', `${lac.url}/OrderEntry`]);
    });

    it("describe views, procedures: their lists, not errors; describe functions: the demo's giveRaise", async () => {
      const functions = await lacRun('describe', 'functions');
      expect(functions.stderr).toBe('');
      expect(tableRows(functions.stdout)).toContainEqual(['giveRaise(number percentRaise)', 'employee', 'true']);
      expect(functions.stdout).toMatch(/# Functions: 1\s/);
      for (const what of ['views', 'procedures']) {
        const run = await lacRun('describe', what);
        expect(run.stderr).toBe('');
        expect(run.stdout).not.toContain('Error');
        // The demo's one view; its one stored routine exists on MariaDB and PostgreSQL only.
        const listed = what === 'views' || (what === 'procedures' && target.database !== 'sqlite') ? 1 : 0;
        expect(run.stdout).toMatch(new RegExp(`# [\\w ]+: ${listed}\\s`));
        if (what === 'views') expect(run.stdout).toContain('customer_summary');
      }
    });

    it('get Customers: a custom resource, its orders printed nested under each customer', async () => {
      const run = await lacRun('get', 'Customers', '-k', ALPHA_KEY);
      expect(run.stdout).not.toContain('Error');
      expect(run.stdout).toContain(`Customers/${ALPHA_KEY} name:${ALPHA}`);
      expect(run.stdout).toMatch(/\n {2}Orders: Customers\.Orders\/\d+ /);
      expect(run.stdout).toMatch(/\n {4}Lineitems: Customers\.Orders\.Lineitems\/\d+ /);
    });

    it('schema openapi: the @docs document, on standard output and to a file', async () => {
      const run = await lacRun('schema', 'openapi');
      const document = JSON.parse(run.stdout) as { openapi?: string; swagger?: string; paths: Record<string, unknown> };
      expect(document.openapi ?? document.swagger).toMatch(/^\d/);
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/customer']));
      const file = join(cli.home, 'openapi.json');
      const toFile = await lacRun('schema', 'openapi', '--file', file);
      expect(toFile.stdout).toContain(`has been exported to file: ${file}`);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(document);
    });

    it('describe apioptions and describe rules: answered, no error (the CLI prints no table for them)', async () => {
      for (const what of ['apioptions', 'rules']) {
        const run = await lacRun('describe', what);
        expect(run.code).toBe(0);
        expect(run.stderr).toBe('');
        expect(run.stdout).not.toContain('Error');
      }
    });

    it('get @rules: one line per rule, and the rule bank as JSON', async () => {
      const run = await lacRun('get', '@rules');
      expect(run.stdout).not.toContain('Error');
      expect(run.stdout).toMatch(/ident:1 kind:sum entity:customer/);
      expect(run.stdout).toMatch(new RegExp(`# top-level objects: ${demoRules.length}\\s`));
      const rules = (await cli.json(['get', '@rules'])) as Row[];
      expect(rules.map((r) => r.name)).toEqual(expect.arrayContaining(['sum customer.balance', 'formula lineitem.amount']));
      expect(rules[0]).toMatchObject({ entityName: 'customer', columnName: 'balance', bestName: 'sum customer.balance' });
    });

    it('get @apioptions: each option printed under its ident, and as JSON', async () => {
      const run = await lacRun('get', '@apioptions');
      expect(run.stdout).not.toContain('Error');
      expect(run.stdout).toMatch(/\n {2}1: +ident:1 name:Aggregate Default\.\.\./);
      expect(run.stdout).toMatch(/\n {2}4: +ident:4 name:Enable HTTP Basic/);
      const options = (await cli.json(['get', '@apioptions'])) as Record<string, Row>;
      expect(options['1']).toMatchObject({ name: 'Aggregate Default Override', option_value: 'false' });
      expect(Object.values(options).map((o) => o.name)).toEqual(
        expect.arrayContaining(['Default page size', 'Enable HTTP Basic Authentication', 'Default response format']),
      );
    });

    it('schema list: the tables with prefix and entity (it asks @tables for sysorder=(entity:asc_uc,entity:desc)&pagesize=1000)', async () => {
      const run = await lacRun('schema', 'list');
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toMatch(/error/i);
      const rows = tableRows(run.stdout);
      expect(rows).toContainEqual(['main', 'customer', 'customer']);
      expect(rows).toContainEqual(['main', 'purchaseorder_audit', 'purchaseorder_audit']);
      expect(run.stdout).toMatch(new RegExp(`# tables: ${DEMO_TABLES.length}\\s`));
    });

    it('schema export --prefix main: the tables in one document', async () => {
      const run = await lacRun('schema', 'export', '--prefix', 'main');
      expect(run.stdout).not.toContain('Error');
      expect(run.stdout).toContain('"customer"');
      expect(() => JSON.parse(run.stdout) as unknown).not.toThrow();
    });
  });
}

/**
 * The CLI README's commands as written (issue 27 items 2 and 9): its LAC names tables
 * `demo:<table>`, which the demo answers with RESOURCE_PREFIX=demo.
 */
for (const target of testTargets()) {
  describe(`the LAC command-line client's README, RESOURCE_PREFIX=demo [${target.name}]`, () => {
    let lac: LacService;
    const cli = new LacCli();

    beforeAll(async () => {
      lac = await startLacService(target, { RESOURCE_PREFIX: 'demo' });
      await cli.login(lac.url);
    }, 180_000);
    afterAll(async () => {
      cli.cleanup();
      await (lac as LacService | undefined)?.stop();
    });

    it('get demo:employee: one line per employee', async () => {
      const run = await cli.run(['get', 'demo:employee']);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toContain('Error');
      expect(run.stdout.split('\n').filter((l) => l.startsWith('employee/')).length).toBeGreaterThan(0);
    });

    it(`get demo:customer --userfilter "myFilter(custname:'Alpha and Sons')" --userorder "sortByName"`, async () => {
      const run = await cli.run([
        'get',
        'demo:customer',
        '--userfilter',
        "myFilter(custname:'Alpha and Sons')",
        '--userorder',
        'sortByName',
      ]);
      expect(run.stdout).not.toContain('Error');
      expect(run.stdout).toContain(`customer/${ALPHA_KEY} name:${ALPHA} balance:`);
      expect(run.stdout).toMatch(/# top-level objects: 1\s/);
      const rows = (await cli.json(['get', 'demo:customer', '--userorder', 'sortByName', '-z', '100'])) as Row[];
      const names = rows.filter((r) => r.name !== undefined).map((r) => String(r.name));
      expect(names.length).toBeGreaterThan(3);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    });

    it('schema list: the tables under the prefix demo', async () => {
      const rows = tableRows((await cli.run(['schema', 'list'])).stdout);
      expect(rows).toContainEqual(['demo', 'customer', 'customer']);
    });
  });
}
