import { demoProject } from '../src/demo/project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { API_HOST, apiAs, apiWithRoles, type Api } from './support/api.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string } };

const ALPHA = 'Alpha%20and%20Sons';

/** The demo plus a role that may read products only: customer is out of its reach under any name. */
const project: ProjectDefinition = {
  ...demoProject,
  roles: {
    ...demoProject.roles,
    roles: [...demoProject.roles.roles, { name: 'Products only', defaultAccess: 'NONE', resources: { product: { access: ['READ'] } } }],
  },
};

/**
 * Issue 27 item 9: LAC names table resources `<prefix>:<table>` (`demo:customer` in the LAC CLI's
 * and SDK's READMEs). Every table answers under that name too, in any case, with the grants of
 * the table, and a body may name rows by the hrefs LAC handed out (`…/demo:customer/<key>`). A
 * wrong prefix is 404 like an unknown resource. Hrefs Tessera writes stay plain (api-contract §1).
 */
for (const prefix of ['main', 'demo']) {
  describeEachTarget(`prefixed resource names, RESOURCE_PREFIX=${prefix}`, (target) => {
    let t: TestApp;
    let api: Api;
    const other = prefix === 'main' ? 'demo' : 'main';
    suiteApp(target, { project, env: prefix === 'main' ? {} : { RESOURCE_PREFIX: prefix } }, async (app) => {
      t = app;
      api = await apiAs(app, 'demo');
    });
    const absolute = (path: string): string => `http://${API_HOST}${t.base}${path}`;

    it('answers GET of every table under <prefix>:<table>, in any case, as under its plain name', async () => {
      // The rows (a next_batch link repeats the URL the request named).
      const rows = async (path: string): Promise<Row[]> =>
        ((await api.get(path).expect(200)).body as Row[]).filter((r) => r['@metadata'].href);
      for (const table of ['customer', 'product', 'employee', 'purchaseorder', 'lineitem', 'purchaseorder_audit']) {
        const plain = await rows(`/${table}?pagesize=3`);
        if (table !== 'purchaseorder_audit') expect(plain).toHaveLength(3); // the audit is empty until an order changes
        expect(await rows(`/${prefix}:${table}?pagesize=3`)).toEqual(plain);
        expect(await rows(`/${prefix.toUpperCase()}:${table.toUpperCase()}?pagesize=3`)).toEqual(plain);
        expect(await rows(`/${prefix}%3A${table}?pagesize=3`)).toEqual(plain);
      }
      const next = ((await api.get(`/${prefix}:customer?pagesize=3`).expect(200)).body as Row[]).at(-1)!['@metadata'] as {
        next_batch?: string;
      };
      expect(next.next_batch).toBe(absolute(`/${prefix}:customer?pagesize=3&offset=3`));
      const [alpha] = (await api.get(`/${prefix}:customer/${ALPHA}`).expect(200)).body as Row[];
      // The href stays the plain name's.
      expect(alpha!['@metadata'].href).toBe(absolute(`/customer/${ALPHA}`));
      expect((await api.get(`/${prefix}:customer/${ALPHA}/name`).expect(200)).text).toBe('Alpha and Sons');
    });

    it('answers 404 / 4040 to another prefix, an unknown table, and a prefixed custom resource', async () => {
      for (const path of [
        `/${other}:customer`,
        `/${other}:customer/${ALPHA}`,
        `/${prefix}:nosuch`,
        `/${prefix}:Customers`,
        '/:customer',
        `/${prefix}:`,
      ]) {
        const res = await api.get(path).expect(404);
        expect(res.body.errorCode).toBe(4040);
      }
      const write = await api.post(`/${other}:customer`, { name: 'Nobody', credit_limit: 1 }).expect(404);
      expect(write.body.errorCode).toBe(4040);
    });

    it('writes through the prefixed URL: POST, PUT, DELETE', async () => {
      const name = `Prefixed ${prefix} ${target.name}`;
      const key = encodeURIComponent(name);
      const created = await api.post(`/${prefix}:customer`, { name, credit_limit: 100 }).expect(201);
      const [row] = created.body.txsummary as Row[];
      expect(row!['@metadata'].href).toBe(absolute(`/customer/${key}`));
      const put = await api
        .put(`/${prefix}:customer/${key}`, { '@metadata': { checksum: row!['@metadata'].checksum }, credit_limit: 200 })
        .expect(200);
      const [updated] = put.body.txsummary as Row[];
      expect(updated!.credit_limit).toBe(200);
      await api.delete(`/${prefix}:customer/${key}?checksum=${encodeURIComponent(updated!['@metadata'].checksum)}`).expect(200);
      expect((await api.get(`/customer/${key}`).expect(200)).body).toEqual([]);
    });

    it("takes LAC's prefixed hrefs in bodies: on the table's URL, the prefixed URL and the API root", async () => {
      const name = `Href ${prefix} ${target.name}`;
      const key = encodeURIComponent(name);
      await api.post('/customer', { name, credit_limit: 100 }).expect(201);
      const lacHref = absolute(`/${prefix}:customer/${key}`);
      let [row] = (await api.get(`/customer/${key}`).expect(200)).body as Row[];
      for (const [path, limit] of [
        ['/customer', 101],
        [`/${prefix}:customer`, 102],
        [`/${prefix.toUpperCase()}:Customer`, 103],
      ] as const) {
        const res = await api
          .put(path, [{ '@metadata': { href: lacHref, checksum: row!['@metadata'].checksum }, credit_limit: limit }])
          .expect(200);
        [row] = res.body.txsummary as Row[];
        expect(row!.credit_limit).toBe(limit);
      }
      // Percent-encoded as a client may send it.
      const encoded = absolute(`/${prefix}%3Acustomer/${key}`);
      const res = await api
        .put('', [{ '@metadata': { href: encoded, checksum: row!['@metadata'].checksum }, credit_limit: 104 }])
        .expect(200);
      [row] = res.body.txsummary as Row[];
      expect(row!.credit_limit).toBe(104);
      // Another prefix names no table: the body is refused, nothing changes.
      const wrong = absolute(`/${other}:customer/${key}`);
      expect(
        (await api.put('/customer', [{ '@metadata': { href: wrong, checksum: row!['@metadata'].checksum }, credit_limit: 1 }]).expect(400))
          .body.errorCode,
      ).toBe(4000);
      expect(((await api.get(`/customer/${key}`).expect(200)).body as Row[])[0]!.credit_limit).toBe(104);
    });

    it("applies the table's grants under both names alike (RolesGuard resolves one resource)", async () => {
      const productsOnly = await apiWithRoles(t, ['Products only']);
      for (const path of ['/customer', `/${prefix}:customer`, `/${prefix}:CUSTOMER/${ALPHA}`, `/customer/${ALPHA}`]) {
        const res = await productsOnly.get(path).expect(403);
        expect(res.body).toEqual({ statusCode: 403, errorCode: 4030, errorMessage: 'Your roles do not permit READ on customer.' });
      }
      expect((await productsOnly.get(`/${prefix}:product?pagesize=1`).expect(200)).body).toHaveLength(2);
      // A rep reads customer's name and balance only, and may not write it, under either name.
      const rep = await apiWithRoles(t, ['Sales rep'], { employee_id: 1 });
      const plain = (await rep.get(`/customer/${ALPHA}`).expect(200)).body as Row[];
      expect((await rep.get(`/${prefix}:customer/${ALPHA}`).expect(200)).body).toEqual(plain);
      expect(Object.keys(plain[0]!).sort()).toEqual(['@metadata', 'balance', 'name']);
      for (const path of ['/customer', `/${prefix}:customer`]) {
        expect((await rep.post(path, { name: 'Rep Co', credit_limit: 1 }).expect(403)).body.errorCode).toBe(4030);
      }
      expect((await rep.get(`/${prefix}:purchaseorder_audit`).expect(403)).body.errorCode).toBe(4030);
    });
  });
}
