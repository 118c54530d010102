import { ResourceRegistry } from '../src/data/resource-registry.js';
import { demoResources } from '../src/demo/resources.js';
import { CustomResourceError, CustomResourceRegistry } from '../src/documents/levels/custom-resource-registry.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiWithRoles, oneRow, suiteAppAs, type Api } from './support/api.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { shelfSlotsProject } from './fixtures/shelf-slots/shelf-slots-project.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

/**
 * `@metadata.key` (issue 26, item 3): LAC finds an object by "the @metadata key if provided, else
 * the resource's defined key, else the primary key". On the demo (plus `shelf_slot`, whose key has
 * three parts), `product.name` being unique.
 */
type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string; resource?: string; verb?: string } };

const withRoles = demoProjectWithRoles([
  {
    name: 'Name-blind',
    defaultAccess: 'NONE',
    resources: { product: { access: ['READ', 'INSERT', 'UPDATE', 'DELETE'], readColumns: ['product_number', 'price'] } },
  },
  { name: 'Cheap products', defaultAccess: 'NONE', resources: { product: { access: ['ALL'], rowFilter: 'price < 100' } } },
]);

const project: ProjectDefinition = {
  ...withRoles,
  entities: shelfSlotsProject.entities,
  migrations: shelfSlotsProject.migrations,
  resources: [
    ...demoResources,
    {
      name: 'Catalog',
      entity: 'product',
      attributes: ['product_number', { name: 'Title', column: 'name' }, { name: 'Cost', column: 'price' }],
      key: 'Title',
    },
    {
      name: 'ToolOrders',
      entity: 'purchaseorder',
      children: [
        {
          name: 'Items',
          entity: 'lineitem',
          parents: [
            {
              name: 'Tool',
              entity: 'product',
              attributes: [
                { name: 'Title', column: 'name' },
                { name: 'Cost', column: 'price' },
              ],
              key: 'Title',
            },
          ],
        },
      ],
    },
  ],
};

describeEachTarget('@metadata.key', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => ([t, api] = [app, client]), { project });

  const verbs = (body: { txsummary: Row[] }): string[] => body.txsummary.map((r) => `${r['@metadata'].resource}:${r['@metadata'].verb}`);
  const productsNamed = async (name: string): Promise<Row[]> =>
    (await api.get(`/product?sysfilter=${encodeURIComponent(`equal(name:'${name}')`)}`).expect(200)).body as Row[];
  const hammer = async (): Promise<Row> => (await productsNamed('Hammer'))[0]!;

  it("MERGE_INSERT keyed on name updates the existing Hammer, by POST and by PUT (the issue's example)", async () => {
    const { product_number } = await hammer();
    const posted = await api
      .post('/product', { '@metadata': { action: 'MERGE_INSERT', key: 'name' }, name: 'Hammer', price: 11 })
      .expect(201);
    expect(verbs(posted.body)).toEqual(['product:UPDATE']);
    expect(posted.body.txsummary[0]).toMatchObject({ product_number, name: 'Hammer', price: 11 });
    const put = await api
      .put('/product', { '@metadata': { action: 'MERGE_INSERT', key: ['name'] }, name: 'Hammer', price: 12 })
      .expect(200);
    expect(verbs(put.body)).toEqual(['product:UPDATE']);
    expect(await productsNamed('Hammer')).toEqual([expect.objectContaining({ product_number, price: 12 })]);
  });

  it('MERGE_INSERT keyed on name inserts a name no row has', async () => {
    const res = await api.post('/product', { '@metadata': { action: 'MERGE_INSERT', key: 'name' }, name: 'Chisel', price: 9 }).expect(201);
    expect(verbs(res.body)).toEqual(['product:INSERT']);
    expect(await productsNamed('Chisel')).toHaveLength(1);
  });

  it('UPDATE keyed on name keeps the checksum rules: stale 409 / 4090, current 200; a name no row has is 404 / 4041', async () => {
    const stale = await api.put('/product', { '@metadata': { key: 'name', checksum: 'A:0000000000000000' }, name: 'Hammer', price: 13 });
    expect(stale.body).toMatchObject({ statusCode: 409, errorCode: 4090 });
    const none = await api.put('/product', { '@metadata': { key: 'name' }, name: 'Hammer', price: 13 });
    expect(none.body).toMatchObject({ statusCode: 400, errorCode: 4004 });
    const row = await hammer();
    await api.put('/product', { '@metadata': { key: 'name', checksum: row['@metadata'].checksum }, name: 'Hammer', price: 13 }).expect(200);
    expect((await hammer()).price).toBe(13);
    const missing = await api.put('/product', { '@metadata': { key: 'name', checksum: 'override' }, name: 'No such tool', price: 1 });
    expect(missing.body).toMatchObject({ statusCode: 404, errorCode: 4041 });
  });

  it('LOOKUP keyed on name finds Hammer by its name whatever else is sent, and changes nothing', async () => {
    const res = await api
      .put('/product', { '@metadata': { action: 'LOOKUP', key: 'name' }, name: 'Hammer', price: 999, product_number: 12345 })
      .expect(200);
    expect(res.body.txsummary).toEqual([]);
    const none = await api.put('/product', { '@metadata': { action: 'LOOKUP', key: 'name' }, name: 'No such tool', price: 13 });
    expect(none.body).toMatchObject({
      statusCode: 400,
      errorCode: 4000,
      errorMessage: expect.stringMatching(/found no row matching name/),
    });
  });

  it('a key that is neither the primary key nor unique, an unknown attribute, or a malformed key is 400 / 4000 naming it', async () => {
    const notUnique = await api.put('/product', { '@metadata': { action: 'MERGE_INSERT', key: 'price' }, name: 'Hammer', price: 1 });
    expect(notUnique.body).toMatchObject({
      statusCode: 400,
      errorCode: 4000,
      errorMessage: expect.stringMatching(/key of product \("price"\) is neither the primary key nor a unique key/),
    });
    const unknown = await api.put('/product', { '@metadata': { action: 'LOOKUP', key: 'title' }, name: 'Hammer' });
    expect(unknown.body).toMatchObject({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringContaining('"title"') });
    for (const key of [[], 7, ['name', 'name'], [null]]) {
      const bad = await api.put('/product', { '@metadata': { action: 'LOOKUP', key }, name: 'Hammer' });
      expect(bad.body).toMatchObject({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringContaining('@metadata.key') });
    }
  });

  it("an object lacking its key's attributes is 400 / 4000 naming them", async () => {
    for (const action of ['MERGE_INSERT', 'UPDATE', 'DELETE', 'LOOKUP']) {
      const res = await api.put('/product', { '@metadata': { action, key: 'name', checksum: 'override' }, product_number: 1, price: 5 });
      expect(res.body).toMatchObject({
        statusCode: 400,
        errorCode: 4000,
        errorMessage: expect.stringMatching(/key's attribute\(s\): "name"/),
      });
    }
  });

  it('DELETE keyed on name (in a PUT body) deletes, with the checksum rules of DELETE', async () => {
    await api.post('/product', { name: 'Hammer2', price: 3 }).expect(201);
    const stale = await api.put('/product', {
      '@metadata': { action: 'DELETE', key: 'name', checksum: 'A:0000000000000000' },
      name: 'Hammer2',
    });
    expect(stale.body).toMatchObject({ statusCode: 409, errorCode: 4090 });
    const [row] = await productsNamed('Hammer2');
    const res = await api
      .put('/product', { '@metadata': { action: 'DELETE', key: 'name', checksum: row!['@metadata'].checksum }, name: 'Hammer2' })
      .expect(200);
    expect(verbs(res.body)).toEqual(['product:DELETE']);
    expect(await productsNamed('Hammer2')).toEqual([]);
  });

  it('in a body of several objects each is found by its key, a row an earlier object inserts included', async () => {
    await api
      .put('/product', [
        { '@metadata': { action: 'MERGE_INSERT', key: 'name' }, name: 'Batch tool', price: 5 },
        { '@metadata': { action: 'MERGE_INSERT', key: 'name' }, name: 'Batch tool', price: 6 },
        { '@metadata': { key: 'name', checksum: 'override' }, name: 'Wrench', price: 13 },
      ])
      .expect(200);
    expect(await productsNamed('Batch tool')).toEqual([expect.objectContaining({ price: 6 })]);
    expect(await productsNamed('Wrench')).toEqual([expect.objectContaining({ price: 13 })]);
  });

  it('a composite key names its attributes in any order; a part of it alone is not a key', async () => {
    await api.post('/shelf_slot', { warehouse: 'west', aisle: 'b2', slot: 4, label: 'first', capacity: 1 }).expect(201);
    const merged = await api
      .put('/shelf_slot', {
        '@metadata': { action: 'MERGE_INSERT', key: ['slot', 'warehouse', 'aisle'] },
        warehouse: 'west',
        aisle: 'b2',
        slot: 4,
        label: 'second',
      })
      .expect(200);
    expect(verbs(merged.body)).toEqual(['shelf_slot:UPDATE']);
    expect(await oneRow<Row>(api, '/shelf_slot/west~b2~4')).toMatchObject({ label: 'second', capacity: 1 });
    const part = await api.put('/shelf_slot', {
      '@metadata': { action: 'LOOKUP', key: ['warehouse', 'aisle'] },
      warehouse: 'west',
      aisle: 'b2',
    });
    expect(part.body).toMatchObject({
      statusCode: 400,
      errorCode: 4000,
      errorMessage: expect.stringContaining('neither the primary key nor a unique key'),
    });
    const lacking = await api.put('/shelf_slot', {
      '@metadata': { action: 'LOOKUP', key: ['warehouse', 'aisle', 'slot'] },
      warehouse: 'west',
      aisle: 'b2',
    });
    expect(lacking.body).toMatchObject({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringContaining('"slot"') });
  });

  it("a custom resource's key: its alias in @metadata.key, and the level's declared key when none is given", async () => {
    const { product_number } = await hammer();
    const byAlias = await api
      .put('/Catalog', { '@metadata': { action: 'MERGE_INSERT', key: 'Title' }, Title: 'Hammer', Cost: 14 })
      .expect(200);
    expect(byAlias.body.txsummary).toHaveLength(1);
    expect((await hammer()).price).toBe(14);
    const column = await api.put('/Catalog', { '@metadata': { action: 'LOOKUP', key: 'name' }, Title: 'Hammer' });
    expect(column.body).toMatchObject({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringContaining('"name"') });
    // No @metadata.key: the declared key (Title) finds the row, not the primary key.
    const declared = await api.put('/Catalog', { '@metadata': { checksum: 'override' }, Title: 'Hammer', Cost: 15 }).expect(200);
    expect(declared.body.txsummary).toHaveLength(1);
    expect(await hammer()).toMatchObject({ product_number, price: 15 });
    const lacking = await api.put('/Catalog', { '@metadata': { checksum: 'override' }, product_number, Cost: 16 });
    expect(lacking.body).toMatchObject({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringContaining('"Title"') });
    // An href still names its row.
    const [read] = (await api.get(`/Catalog/${String(product_number)}`).expect(200)).body as Row[];
    await api
      .put('/Catalog', { '@metadata': { href: read!['@metadata'].href, checksum: read!['@metadata'].checksum }, Cost: 17 })
      .expect(200);
    expect((await hammer()).price).toBe(17);
  });

  it("a nested level's declared key: a line item's Tool found by its Title, whatever Cost is sent", async () => {
    const { product_number } = await hammer();
    const res = await api
      .post('/ToolOrders', {
        customer_name: 'Alpha and Sons',
        Items: [{ qty_ordered: 1, Tool: { '@metadata': { action: 'LOOKUP' }, Title: 'Hammer', Cost: 999 } }],
      })
      .expect(201);
    const item = (res.body.txsummary as Row[]).find((r) => r['@metadata'].resource === 'lineitem' || 'qty_ordered' in r);
    expect(item).toMatchObject({ product_number });
  });

  it('concurrent MERGE_INSERTs of the same new name: every one succeeds (the losers update), one row', async () => {
    const prices = [21, 22, 23, 24, 25, 26];
    const results = await Promise.all(
      prices.map((price) => api.put('/product', { '@metadata': { action: 'MERGE_INSERT', key: 'name' }, name: 'Raced tool', price })),
    );
    expect(results.map((r) => r.status)).toEqual(prices.map(() => 200));
    expect(results.map((r) => verbs(r.body)[0]).filter((v) => v === 'product:INSERT')).toHaveLength(1);
    const rows = await productsNamed('Raced tool');
    expect(rows).toHaveLength(1);
    expect(prices).toContain(rows[0]!.price);
  });

  it('a key column the caller may not read is 400 / 4003, whether a row has the value or not', async () => {
    const blind = await apiWithRoles(t, ['Name-blind']);
    for (const name of ['Hammer', 'No such tool']) {
      for (const action of ['MERGE_INSERT', 'LOOKUP', 'UPDATE', 'DELETE']) {
        const res = await blind.put('/product', { '@metadata': { action, key: 'name', checksum: 'override' }, name, price: 1 });
        expect(res.body).toMatchObject({ statusCode: 400, errorCode: 4003, errorMessage: expect.stringContaining('"name"') });
      }
    }
  });

  it("row filters apply as for the primary key: a row the caller's filter hides answers as a missing one", async () => {
    const cheap = await apiWithRoles(t, ['Cheap products']);
    const answers = [];
    for (const name of ['Drill', 'No such tool']) {
      answers.push((await cheap.put('/product', { '@metadata': { key: 'name', checksum: 'override' }, name, price: 1 })).body);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ statusCode: 404, errorCode: 4041 });
    await cheap.put('/product', { '@metadata': { key: 'name', checksum: 'override' }, name: 'Shovel', price: 26 }).expect(200);
    expect((await productsNamed('Drill'))[0]!.price).toBe(315);
  });

  it('a declared key must be the primary key or a unique key of the table, checked at boot', () => {
    const tables = t.app.get(ResourceRegistry);
    const level = (key: string | string[]) => [
      { name: 'Keyed', entity: 'product', attributes: ['product_number', { name: 'Title', column: 'name' }, 'price'], key },
    ];
    expect(() => new CustomResourceRegistry(level('Title'), tables, target.database)).not.toThrow();
    expect(() => new CustomResourceRegistry(level(['product_number']), tables, target.database)).not.toThrow();
    for (const [key, problem] of [
      ['price', 'key (price) is neither the primary key nor a unique key of product'],
      ['name', 'key: "name" is not an attribute of this level'],
      [[], 'key: an attribute name or a list of different attribute names'],
    ] as const) {
      expect(() => new CustomResourceRegistry(level(key as string | string[]), tables, target.database)).toThrow(CustomResourceError);
      expect(() => new CustomResourceRegistry(level(key as string | string[]), tables, target.database)).toThrow(problem);
    }
  });
});
