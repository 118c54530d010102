import type { ColumnResolver, ResolvedColumn } from '../../data/query/compile-context.js';
import { AttributeColumnResolver } from './attribute-column-resolver.js';

/** The table's columns the caller may read: `secret` is not among them. */
const TABLE: Record<string, ResolvedColumn> = {
  name: { sql: '"t"."name"', kind: 'string' },
  title: { sql: '"t"."title"', kind: 'string' },
  balance: { sql: '"t"."balance"', kind: 'decimal' },
};
const inner: ColumnResolver = { resolve: (path) => (path.length === 1 ? TABLE[path[0]!] : undefined) };

/** A level showing `title` as `name`, `name` as `Label` and `balance` as `Balance`; `secret` is not shown. */
const attributes = new Map([
  ['name', { column: { name: 'title' } }],
  ['Label', { column: { name: 'name' } }],
  ['Balance', { column: { name: 'balance' } }],
]);

describe('AttributeColumnResolver', () => {
  const resolver = new AttributeColumnResolver(attributes, inner);

  it('resolves attribute names to their columns', () => {
    expect(resolver.resolve(['Balance'])).toBe(TABLE.balance);
    expect(resolver.resolve(['Label'])).toBe(TABLE.name);
  });

  it('resolves the column names the level shows, as LAC does', () => {
    expect(resolver.resolve(['balance'])).toBe(TABLE.balance);
    expect(resolver.resolve(['title'])).toBe(TABLE.title);
    expect(resolver.columnOf('title')).toBe('title');
  });

  it('lets an attribute win over a column of the same name', () => {
    expect(resolver.resolve(['name'])).toBe(TABLE.title);
    expect(resolver.columnOf('name')).toBe('title');
  });

  it('refuses a column the level does not show, and paths', () => {
    const shown = new AttributeColumnResolver(new Map([['Balance', { column: { name: 'balance' } }]]), inner);
    expect(shown.resolve(['name'])).toBeUndefined();
    expect(shown.resolve(['secret'])).toBeUndefined();
    expect(shown.resolve(['t', 'balance'])).toBeUndefined();
    expect(shown.columnOf('title')).toBeUndefined();
  });

  it('refuses what the inner resolver refuses, even when the level shows it', () => {
    const withSecret = new AttributeColumnResolver(new Map([['Secret', { column: { name: 'secret' } }]]), inner);
    expect(withSecret.resolve(['Secret'])).toBeUndefined();
    expect(withSecret.resolve(['secret'])).toBeUndefined();
  });
});
