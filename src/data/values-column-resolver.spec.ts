import { columnOf, resourceOf } from '../../test/support/resource-shapes.js';
import { describe, expect, it } from '@jest/globals';
import { parseFilter } from './query/filter-parser.js';
import { compileFilter } from './query/sql-compiler.js';
import { numberedParams, positionalParams } from './query/compile-context.js';
import type { ResourceRegistry } from './resource-registry.js';
import type { Dialect } from '../database/dialect.js';
import { ValuesColumnResolver } from './values-column-resolver.js';

const order = resourceOf('purchaseorder', [columnOf('id', 'integer', true), columnOf('salesrep_id', 'integer')]);
const item = resourceOf('lineitem', [columnOf('id', 'integer', true), columnOf('order_id', 'integer'), columnOf('amount', 'decimal'), columnOf('note', 'string')], [
  { name: 'purchaseorder', parent: 'purchaseorder', columns: [{ child: 'order_id', parent: 'id' }] },
]);
const registry = { find: (name: string) => (name === 'purchaseorder' ? order : undefined) } as unknown as ResourceRegistry;

function compile(filter: string, dialect: Dialect, row: Record<string, string | number | null>) {
  const params = dialect === 'postgres' ? numberedParams() : positionalParams();
  const columns = new ValuesColumnResolver(item, registry, dialect, row);
  const sql = compileFilter(parseFilter(filter), { columns, params, dialect, globals: { rep: 7 } });
  return { sql, values: params.values, incomplete: columns.incomplete };
}

describe('ValuesColumnResolver', () => {
  it('binds the row\'s values, typed as their columns, and reads a parent through the bound relation value', () => {
    expect(compile('purchaseorder.salesrep_id = @{rep} and amount < 10', 'postgres', { id: 1, order_id: 5, amount: '2.5000', note: null })).toEqual({
      sql: '(((SELECT "tp"."salesrep_id" FROM "purchaseorder" "tp" WHERE "tp"."id" = CAST($1 AS bigint)) = CAST($2 AS bigint)) AND (CAST($3 AS numeric) < $4))',
      values: [5, 7, '2.5000', '10'],
      incomplete: false,
    });
    expect(compile('amount < 10', 'sqlite', { amount: '2.5000' }).sql).toBe('(CAST(? AS NUMERIC) < ?)');
    expect(compile('amount < 10', 'mysql', { amount: '2.5000' }).sql).toBe('(CAST(? AS DECIMAL(65,30)) < CAST(? AS DECIMAL(65,30)))');
    expect(compile("note = 'x'", 'mysql', { note: 'y' }).sql).toBe('(? = ?)');
  });

  it('takes a nullable column without a default that the row does not hold as NULL (what the insert stores)', () => {
    const result = compile("note = 'x'", 'sqlite', { id: 1, order_id: 5 });
    expect(result.incomplete).toBe(false);
    expect(result.sql).toBe('(NULL = ?)');
  });

  it('marks the answer incomplete when the filter names a column the database fills (default, generated key)', () => {
    const filled = resourceOf('lineitem', [{ ...columnOf('id', 'integer', true), generated: true }, { ...columnOf('note', 'string'), hasDefault: true }]);
    for (const filter of ["note = 'x'", 'id = 3']) {
      const columns = new ValuesColumnResolver(filled, registry, 'sqlite', {});
      const sql = compileFilter(parseFilter(filter), { columns, params: positionalParams(), dialect: 'sqlite', globals: {} });
      expect({ sql, incomplete: columns.incomplete }).toEqual({ sql: '(NULL = ?)', incomplete: true });
    }
  });
});
