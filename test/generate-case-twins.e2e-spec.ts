import type { GenerateResult } from '../src/generator/generate-project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, suiteAppAs, type Api } from './support/api.js';
import { generateFromSql } from './support/generated-project.js';
import type { ScratchDatabase } from './support/test-databases.js';
import { suiteApp, testTargets, type TestApp } from './support/test-app.js';
import { caseTwinsProject } from './fixtures/case-twins/case-twins-project.js';

/**
 * Tables whose names differ only in case (`Customer` and `customer`): PostgreSQL and MariaDB on
 * Linux keep them apart, resource names match case-insensitively. The generator leaves such a
 * pair out and says so; a project that declares both (by hand) reaches each by its exact name, and
 * a write never lands in the other table.
 */
const TWIN_SQL: Record<'mysql' | 'postgres', string[]> = {
  postgres: [
    'CREATE TABLE "Customer" ("id" SERIAL PRIMARY KEY, "name" VARCHAR(30) NOT NULL)',
    'CREATE TABLE "customer" ("id" SERIAL PRIMARY KEY, "city" VARCHAR(30) NOT NULL)',
    'CREATE TABLE "CUSTOMER" ("id" SERIAL PRIMARY KEY)',
    'CREATE TABLE "orders" ("id" SERIAL PRIMARY KEY, "customer_id" INT REFERENCES "customer" ("id"))',
    'CREATE TABLE "Product" ("id" SERIAL PRIMARY KEY)',
    'CREATE TABLE "product" ("id" SERIAL PRIMARY KEY)',
  ],
  mysql: [
    'CREATE TABLE `Customer` (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(30) NOT NULL)',
    'CREATE TABLE `customer` (id INT AUTO_INCREMENT PRIMARY KEY, city VARCHAR(30) NOT NULL)',
    'CREATE TABLE `CUSTOMER` (id INT AUTO_INCREMENT PRIMARY KEY)',
    'CREATE TABLE `orders` (id INT AUTO_INCREMENT PRIMARY KEY, customer_id INT, FOREIGN KEY (customer_id) REFERENCES `customer` (id))',
    'CREATE TABLE `Product` (id INT AUTO_INCREMENT PRIMARY KEY)',
    'CREATE TABLE `product` (id INT AUTO_INCREMENT PRIMARY KEY)',
  ],
};

const caseSensitive = testTargets().filter((t) => t.database !== 'sqlite');

for (const target of caseSensitive.filter((t) => t.adapter === 'express')) {
  const dialect = target.database as 'mysql' | 'postgres';
  describe(`generate from tables whose names differ only in case [${target.database}]`, () => {
    let source: ScratchDatabase;
    let result: GenerateResult;
    let project: ProjectDefinition;

    beforeAll(async () => {
      ({ source, result, project } = await generateFromSql(dialect, TWIN_SQL[dialect], `twins-${dialect}`, 'twins'));
    });
    afterAll(async () => {
      await source.drop();
    });

    it('leaves out each group of such tables, naming them all, and generates the rest', () => {
      expect(result.skipped).toEqual([
        'tables CUSTOMER, Customer and customer: their names differ only in case, which resource names (matched ignoring case) cannot tell apart; rename all but one to serve it',
        'tables Product and product: their names differ only in case, which resource names (matched ignoring case) cannot tell apart; rename all but one to serve it',
        'relation orders(customer_id) -> customer: that table is not served',
      ]);
      expect(project.entities.map((e) => e.name)).toEqual(['Orders']);
    });
  });
}

// PostgreSQL only: TypeORM's MySQL reader takes `Customer` and `customer` for one table, so the boot's schema check refuses such a project there.
for (const target of caseSensitive.filter((t) => t.database === 'postgres')) {
  describe(`a project with tables whose names differ only in case [${target.name}]`, () => {
    let t: TestApp;
    let api: Api;
    suiteApp(target, { project: caseTwinsProject }, async (app) => {
      t = app;
      api = await apiAs(t, 'demo');
    });

    it('reaches each table by its exact name; a write lands in the table the URL names', async () => {
      const upper = await api.post('/Customer', { name: 'Upper Co' }).expect(201);
      expect(upper.body.txsummary[0]['@metadata']).toMatchObject({ resource: 'Customer', href: expect.stringMatching(/\/Customer\/1$/) });
      const lower = await api.post('/customer', { city: 'Lowtown' }).expect(201);
      expect(lower.body.txsummary[0]['@metadata']).toMatchObject({ resource: 'customer', href: expect.stringMatching(/\/customer\/1$/) });
      // A column of the other table is unknown here: the body is checked against the table the URL names.
      await api.post('/Customer', { city: 'Nowhere' }).expect(400);
      expect((await api.get('/Customer').expect(200)).body).toEqual([expect.objectContaining({ id: 1, name: 'Upper Co' })]);
      expect((await api.get('/customer').expect(200)).body).toEqual([expect.objectContaining({ id: 1, city: 'Lowtown' })]);
      expect((await api.get('/main:Customer/1').expect(200)).body).toEqual([expect.objectContaining({ name: 'Upper Co' })]);
    });

    it('answers 404 for any other spelling: it could mean either table', async () => {
      const res = await api.post('/CUSTOMER', { name: 'Ambiguous' }).expect(404);
      expect(res.body).toMatchObject({ errorCode: 4040, errorMessage: expect.stringContaining('only in case') });
      await api.get('/cUSTOMER').expect(404);
      expect((await api.get('/Customer').expect(200)).body).toHaveLength(1);
    });
  });
}

describe('resource names without a twin still match ignoring case [sqlite]', () => {
  const target = testTargets().find((t) => t.database === 'sqlite' && t.adapter === 'express')!;
  let api: Api;
  suiteAppAs(target, 'demo', (_app, client) => {
    api = client;
  });

  it('CUSTOMER and Main:Customer are the demo customer', async () => {
    const [first] = (await api.get('/customer').expect(200)).body as unknown[];
    expect((await api.get('/CUSTOMER').expect(200)).body[0]).toEqual(first);
    expect((await api.get('/Main:Customer').expect(200)).body[0]).toEqual(first);
  });
});
