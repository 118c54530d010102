import { capturedLog } from './support/captured-log.js';
import { apiAs, apiWithRoles, suiteAppAs, type Api } from './support/api.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';
import { notebookProject } from './fixtures/schema-drift/schema-drift-project.js';

/** What no refusal may show: SQL, driver text and codes, constraint names (TypeORM's are FK_/UQ_/IDX_/PK_ and a hash). */
const LEAKS =
  /INSERT|UPDATE|DELETE|SELECT|SQLITE_|ER_|constraint failed|violates (foreign|unique|check)|null value in column|Duplicate entry|cannot be null|\b(FK|UQ|IDX|PK|REL)_[0-9a-f]{6,}|_pkey|_fkey|_key\b/;

describeEachTarget('database refusals name the kind and the columns', (target) => {
  let api: Api;
  const log = capturedLog('debug');

  suiteAppAs(target, 'demo', (_app, client) => (api = client), { project: notebookProject, logger: log.logger });

  it('foreign key: 422 / 4221 naming lineitem.product_number → product', async () => {
    const order = await api.post('/purchaseorder', { customer_name: 'Alpha and Sons' }).expect(201);
    const orderNumber = (order.body as { txsummary: Array<{ order_number: number }> }).txsummary[0]!.order_number;
    const res = await api.post('/lineitem', { order_number: orderNumber, product_number: 987654, qty_ordered: 1 });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4221);
    expect(res.body.errorMessage).toBe('The change violates a database constraint: foreign key: lineitem.product_number → product.');
    expect(JSON.stringify(res.body)).not.toMatch(LEAKS);
    expect(JSON.stringify(res.body)).not.toContain('987654');
  });

  it('foreign key on a missing customer: 422 / 4221 naming purchaseorder.customer_name → customer', async () => {
    const res = await api.post('/purchaseorder', { customer_name: 'Secret Customer Name' });
    expect(res.status).toBe(422);
    expect(res.body.errorMessage).toBe('The change violates a database constraint: foreign key: purchaseorder.customer_name → customer.');
    expect(JSON.stringify(res.body)).not.toContain('Secret Customer Name');
  });

  it('foreign key on a delete: 422 / 4221 naming the row still referred to, not the table that refers to it', async () => {
    const product = await api.post('/product', { name: 'Referred Widget', price: 1 }).expect(201);
    const created = (product.body as { txsummary: Array<{ product_number: number; '@metadata': { checksum: string } }> }).txsummary[0]!;
    const order = await api.post('/purchaseorder', { customer_name: 'Alpha and Sons' }).expect(201);
    const orderNumber = (order.body as { txsummary: Array<{ order_number: number }> }).txsummary[0]!.order_number;
    await api.post('/lineitem', { order_number: orderNumber, product_number: created.product_number, qty_ordered: 1 }).expect(201);
    const res = await api.delete(`/product/${created.product_number}?checksum=${encodeURIComponent(created['@metadata'].checksum)}`);
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4221);
    expect(res.body.errorMessage).toBe(
      'The change violates a database constraint: foreign key: rows of another table refer to this product row.',
    );
    expect(JSON.stringify(res.body)).not.toMatch(LEAKS);
  });

  it('not null: 422 / 4221 naming notebook.title', async () => {
    const res = await api.post('/notebook', { title: null });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4221);
    expect(res.body.errorMessage).toBe('The change violates a database constraint: not null: notebook.title.');
    expect(JSON.stringify(res.body)).not.toMatch(LEAKS);
  });

  it('unique: 409 / 4091 (the contract keeps duplicate keys there) naming product.name', async () => {
    const res = await api.post('/product', { name: 'Hammer', price: 1 });
    expect(res.status).toBe(409);
    expect(res.body.errorCode).toBe(4091);
    expect(res.body.errorMessage).toBe('An object with this key already exists: unique: product.name.');
    expect(JSON.stringify(res.body)).not.toMatch(LEAKS);
  });

  it('a duplicate primary key names it too: customer.name', async () => {
    const res = await api.post('/customer', { name: 'Alpha and Sons', credit_limit: 1 });
    expect(res.status).toBe(409);
    expect(res.body.errorMessage).toBe('An object with this key already exists: unique: customer.name.');
  });

  it('logs the driver code at debug level, never the values', async () => {
    await api.post('/purchaseorder', { customer_name: 'Logged Nowhere Inc' }).expect(422);
    const lines = log.records().filter((l) => l.msg === 'the database refused the change');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatchObject({ level: 20, code: expect.any(String) });
    expect(log.text()).not.toContain('Logged Nowhere Inc');
  });
});

/** The demo with two roles that may write what they cannot wholly read. */
const clerkProject = demoProjectWithRoles([
  // May add products, but not read their names.
  {
    name: 'Product clerk',
    defaultAccess: 'NONE',
    resources: { product: { access: ['READ', 'INSERT'], readColumns: ['product_number', 'price'] } },
  },
  // May add and read line items, but not read products.
  { name: 'Line clerk', defaultAccess: 'NONE', resources: { lineitem: { access: ['READ', 'INSERT'] } } },
  // May add line items, and read nothing.
  { name: 'Blind clerk', defaultAccess: 'NONE', resources: { lineitem: { access: ['INSERT'] } } },
]);

describeEachTarget('database refusals name only what the caller may read', (target) => {
  let t: TestApp;
  let orderNumber: number;

  suiteApp(target, { project: clerkProject }, async (app) => {
    t = app;
    const order = await (await apiAs(app, 'demo')).post('/purchaseorder', { customer_name: 'Alpha and Sons' }).expect(201);
    orderNumber = (order.body as { txsummary: Array<{ order_number: number }> }).txsummary[0]!.order_number;
  });

  it('a unique column the caller cannot read is not named: 409 / 4091 names the table only', async () => {
    const res = await (await apiWithRoles(t, ['Product clerk'])).post('/product', { name: 'Hammer', price: 1 });
    expect(res.status).toBe(409);
    expect(res.body.errorCode).toBe(4091);
    expect(res.body.errorMessage).toBe('An object with this key already exists: unique: product.');
  });

  it('a referenced table the caller cannot read is not named', async () => {
    const res = await (
      await apiWithRoles(t, ['Line clerk'])
    ).post('/lineitem', { order_number: orderNumber, product_number: 987654, qty_ordered: 1 });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4221);
    expect(res.body.errorMessage).toBe('The change violates a database constraint: foreign key: lineitem.product_number.');
  });

  it('a caller that can read nothing hears no table or column', async () => {
    const res = await (
      await apiWithRoles(t, ['Blind clerk'])
    ).post('/lineitem', { order_number: orderNumber, product_number: 987654, qty_ordered: 1 });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4221);
    expect(res.body.errorMessage).toBe('The change violates a database constraint (foreign key, not null or check).');
  });
});
