import { demoProject } from '../src/demo/project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { capturedLog } from './support/captured-log.js';
import { startTestApp, testTargets } from './support/test-app.js';

/** The boot's note: the one warning that starts so. */
const NOTE = 'Named filters and orders read columns no index starts with';

/**
 * The demo plus named filters and orders over columns with and without an index: product.price
 * and purchaseorder.notes have none; product_number is the key, product.name is unique, and
 * purchaseorder.customer_name has an index.
 */
const project: ProjectDefinition = {
  ...demoProject,
  resources: [
    ...(demoProject.resources ?? []),
    {
      name: 'Products',
      entity: 'product',
      attributes: ['product_number', 'name', { name: 'Price', column: 'price' }],
      userFilters: { cheaperThan: 'Price < :max', named: 'name = :name', numbered: 'product_number = :n' },
      // Only the first term decides whether the order can use an index: name is not named here.
      userOrders: { cheapestFirst: 'Price asc, name desc', byName: 'name' },
    },
    {
      name: 'Orders',
      entity: 'purchaseorder',
      userFilters: { noted: "customer_name = :customer and not (notes like 'x%' or notes is null)" },
    },
  ],
};

async function bootNotes(
  database: 'sqlite' | 'mysql' | 'postgres',
  definition: ProjectDefinition,
): Promise<Array<Record<string, unknown>>> {
  const log = capturedLog('warn');
  const t = await startTestApp({ name: `${database}/express`, database, adapter: 'express' }, { project: definition, logger: log.logger });
  await t.close();
  return log.records().filter((record) => String(record.msg).startsWith(NOTE));
}

const databases = [...new Set(testTargets().map((target) => target.database))];

/**
 * Issue 31 item 4: a named filter or order over a column no index starts with reads the whole
 * table each time (W2 at 1,000,000 customers was 200 times slower than at 1,000). The boot says
 * which, in one line, reading the indexes of the live database after the migrations. The HTTP
 * adapter plays no part, so each database boots once per test.
 */
for (const database of databases) {
  describe(`boot note on named filters and orders without an index [${database}]`, () => {
    it('names each table.column no index starts with, and the named filters and orders that read it, in one line', async () => {
      const notes = await bootNotes(database, project);
      expect(notes).toHaveLength(1);
      expect(notes[0]!.level).toBe(40);
      expect(notes[0]!.columns).toEqual(['product.price', 'purchaseorder.notes']);
      expect(notes[0]!.msg).toContain(
        'product.price (Products userfilter cheaperThan, Products userorder cheapestFirst); purchaseorder.notes (Orders userfilter noted)',
      );
    });

    it('on PostgreSQL alone, names a column that may be NULL whose index keeps nulls last, when a named order sorts by it', async () => {
      // purchaseorder.salesrep_id may be NULL and has a plain index: a filter uses it everywhere, and so does an order
      // on SQLite and MariaDB, but PostgreSQL's index (ASC NULLS LAST) cannot give Tessera's nulls-first order.
      const byRep: ProjectDefinition = {
        ...demoProject,
        resources: [
          ...(demoProject.resources ?? []),
          {
            name: 'RepOrders',
            entity: 'purchaseorder',
            userFilters: { ofRep: 'salesrep_id = :rep' },
            userOrders: { byRep: 'salesrep_id desc' },
          },
        ],
      };
      const notes = await bootNotes(database, byRep);
      if (database !== 'postgres') {
        expect(notes).toEqual([]);
        return;
      }
      expect(notes).toHaveLength(1);
      expect(notes[0]!.columns).toEqual(['purchaseorder.salesrep_id']);
      expect(notes[0]!.msg).toContain('purchaseorder.salesrep_id (RepOrders userfilter ofRep, RepOrders userorder byRep)');
      expect(notes[0]!.msg).toContain('(column NULLS FIRST)');
    });

    it('says nothing about the demo: every column its named filters and orders read leads an index', async () => {
      expect(await bootNotes(database, demoProject)).toEqual([]);
    });
  });
}
