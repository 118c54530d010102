import type { SchemaColumn, SchemaForeignKey, SchemaTable } from '../database/schema/schema-reader.js';
import { entityColumnType } from './column-types.js';
import { entitySource } from './entity-writer.js';
import { commentText, entityNames, propertyKey, quote } from './names.js';
import { baselineMigrationSource } from './migration-writer.js';
import { servedSchema } from './served-schema.js';

const column = (name: string, extra: Partial<SchemaColumn> = {}): SchemaColumn => ({
  name,
  type: 'integer',
  nullable: false,
  primary: false,
  unique: false,
  ...extra,
});

const table = (name: string, columns: SchemaColumn[], extra: Partial<SchemaTable> = {}): SchemaTable => ({
  name,
  columns,
  primaryKey: columns.filter((c) => c.primary).map((c) => c.name),
  foreignKeys: [],
  uniques: [],
  indices: [],
  ...extra,
});

describe('generator names', () => {
  it('quotes property names that are not identifiers, and escapes quotes', () => {
    expect(propertyKey('order_no')).toBe('order_no');
    expect(propertyKey('unit price')).toBe("'unit price'");
    expect(propertyKey('2nd')).toBe("'2nd'");
    expect(quote("it's")).toBe("'it\\'s'");
    expect(quote('a\u2028b\u0000c\td')).toBe("'a\\u2028b\\u0000c\\u0009d'");
  });

  it('keeps a name inside a doc comment: on one line, never closing it', () => {
    expect(commentText('x */ run(); /*\ny')).toBe('x *\\/ run(); /*\\ny');
  });

  it('gives every table a class and a file of its own, clear of the names an entity file imports', () => {
    const served = servedSchema({
      kind: 'sqlite',
      unread: [],
      views: [],
      tables: [
        table('order_line', [column('id', { primary: true })]),
        table('Order-Line', [column('id', { primary: true })]),
        table('entity', [column('id', { primary: true })]),
        table('Column', [column('id', { primary: true })]),
        table('3d', [column('id', { primary: true })]),
        table('Reflect', [column('id', { primary: true })]),
        table('project_definition', [column('id', { primary: true })]),
        table('a'.repeat(300), [column('id', { primary: true })]),
        table(`${'a'.repeat(300)}_b`, [column('id', { primary: true })]),
      ],
    });
    const names = entityNames(served.tables);
    expect([...names.className.values()]).toEqual([
      'OrderLine',
      'OrderLine2',
      'Entity2',
      'Column2',
      'T3d',
      'Reflect2',
      'ProjectDefinition2',
      'A'.padEnd(300, 'a'),
      `${'A'.padEnd(300, 'a')}B`,
    ]);
    expect([...names.fileName.values()]).toEqual([
      'order-line.entity',
      'order-line2.entity',
      'entity.entity',
      'column.entity',
      '3d.entity',
      'reflect.entity',
      'project-definition.entity',
      `${'a'.repeat(100)}.entity`,
      `${'a'.repeat(100)}2.entity`,
    ]);
  });

  it('names relations after the key column without _id, else the table; never as a column is named', () => {
    const employee = table('employee', [
      column('id', { primary: true }),
      column('manager_id', { nullable: true }),
      column('dept', { type: 'varchar', length: '10' }),
      column('department', { type: 'varchar', length: '10' }),
    ]);
    employee.foreignKeys = [
      { columns: ['manager_id'], referencedTable: 'employee', referencedColumns: ['id'] },
      { columns: ['dept'], referencedTable: 'department', referencedColumns: ['code'] },
    ];
    const department = table('department', [column('code', { primary: true, type: 'varchar', length: '10' }), column('employee_list')]);
    const served = servedSchema({ kind: 'sqlite', tables: [department, employee], unread: [], views: [] });
    const names = entityNames(served.tables);
    const [toManager, toDepartment] = served.tables[1]!.relations;
    expect(names.relation.get(toManager!)).toEqual({ manyToOne: 'manager', oneToMany: 'employee_list' });
    expect(names.relation.get(toDepartment!)).toEqual({ manyToOne: 'department2', oneToMany: 'employee_list2' });
  });

  it('writes odd column names as quoted properties, decorated with the name as the database spells it', () => {
    const odd = table('odd', [
      column('id', { primary: true, generated: 'increment' }),
      column('unit price', { type: 'decimal', precision: 9, scale: 2, nullable: true }),
    ]);
    const served = servedSchema({ kind: 'postgres', tables: [odd], unread: [], views: [] });
    const source = entitySource(served.tables[0]!, served.tables, entityNames(served.tables), { srcFromEntities: '../..' });
    expect(source).toContain(
      "@Column({ type: 'decimal', precision: 9, scale: 2, nullable: true })\n  'unit price'!: DecimalString | null;",
    );
    expect(source).toContain("@PrimaryGeneratedColumn('increment', { type: 'integer' })\n  id!: number;");
  });

  it('leaves out keyless tables, unservable columns, and relations to tables left out', () => {
    const blob = table('blobby', [column('id', { primary: true, type: 'bytea' })]);
    const child = table('child', [
      column('id', { primary: true }),
      column('blob_id', { nullable: true }),
      column('search', { type: 'tsvector', nullable: true }),
    ]);
    child.foreignKeys = [{ columns: ['blob_id'], referencedTable: 'blobby', referencedColumns: ['id'] }];
    const served = servedSchema({ kind: 'postgres', tables: [blob, child, table('log', [column('at')])], unread: [], views: [] });
    expect(served.tables.map((t) => t.source.name)).toEqual(['child']);
    expect(served.tables[0]!.columns.map((c) => c.name)).toEqual(['id', 'blob_id']);
    expect(served.skipped).toEqual([
      'table blobby: its key column id has type bytea: Tessera serves bytes as values, not as keys',
      'table log: it has no primary key',
      'column child.search: type tsvector, which Tessera cannot serve (the column stays in the database)',
      'relation child(blob_id) -> blobby: that table is not served',
    ]);
  });
});

const key = (from: string, to: string): SchemaForeignKey => ({ columns: [from], referencedTable: to, referencedColumns: ['id'] });

describe('served schema', () => {
  it('breaks each loop of NOT NULL foreign keys at one relation, marked for TypeORM only; nullable loops and chains stay as they are', () => {
    const served = servedSchema({
      kind: 'postgres',
      unread: [],
      views: [],
      tables: [
        table('chain', [column('id', { primary: true }), column('staff_id')], { foreignKeys: [key('staff_id', 'staff')] }),
        table('node', [column('id', { primary: true }), column('node_id')], { foreignKeys: [key('node_id', 'node')] }),
        table('optional', [column('id', { primary: true }), column('optional_id', { nullable: true })], {
          foreignKeys: [key('optional_id', 'optional')],
        }),
        table('staff', [column('id', { primary: true }), column('store_id')], { foreignKeys: [key('store_id', 'store')] }),
        table('store', [column('id', { primary: true }), column('manager_id')], { foreignKeys: [key('manager_id', 'staff')] }),
      ],
    });
    const closers = served.tables.flatMap((t) => [...t.loopClosers].map((fk) => `${t.source.name}.${fk.columns.join()}`));
    expect(closers).toEqual(['node.node_id', 'store.manager_id']);
    const store = served.tables.find((t) => t.source.name === 'store')!;
    const source = entitySource(store, served.tables, entityNames(served.tables), { srcFromEntities: '../..' });
    expect(source).toContain("@ManyToOne('Staff', (parent: Staff) => parent.store_list, { nullable: true })");
    expect(source).toContain("@Column({ type: 'integer' })\n  manager_id!: number;");
  });

  it('never leaves a table out for a column it cannot serve, only for its key: the column is left out, and the line says what inserts need; bytes are served, not as keys', () => {
    const served = servedSchema({
      kind: 'postgres',
      unread: [],
      views: [],
      tables: [
        table('film', [
          column('id', { primary: true }),
          column('fulltext', { type: 'tsvector' }),
          column('picture', { type: 'bytea', nullable: true }),
        ]),
        table('blob_keyed', [column('id', { primary: true, type: 'bytea' })]),
      ],
    });
    expect(served.tables.map((t) => [t.source.name, t.columns.map((c) => c.name)])).toEqual([['film', ['id', 'picture']]]);
    expect(served.tables[0]!.columns[1]).toMatchObject({ type: 'bytea', kind: 'binary' });
    // TypeORM reads bytes as a Buffer.
    expect(entitySource(served.tables[0]!, served.tables, entityNames(served.tables), { srcFromEntities: '../..' })).toContain(
      "@Column({ type: 'bytea', nullable: true })\n  picture!: Buffer | null;",
    );
    expect(served.skipped).toEqual([
      'table blob_keyed: its key column id has type bytea: Tessera serves bytes as values, not as keys',
      'column film.fulltext: type tsvector, which Tessera cannot serve (the column stays in the database; it is NOT NULL without a default, so an insert through the API succeeds only where the database fills it, e.g. by a trigger)',
    ]);
  });

  it.each([
    ['timestamp', undefined, { type: 'datetime', kind: 'datetime' }],
    ['datetime', undefined, { type: 'datetime', kind: 'datetime' }],
    ['char(20)', undefined, { type: 'character', length: '20', kind: 'string' }],
    ['varchar', '45', { type: 'varchar', length: '45', kind: 'string' }],
    ['blob sub_type text', undefined, { type: 'text', kind: 'string' }],
    ['int', undefined, { type: 'int', kind: 'integer' }],
    ['unsigned integer(4)', undefined, { type: 'integer', kind: 'integer' }],
    ['double(8)', undefined, { type: 'real', kind: 'decimal' }],
    ['money', undefined, { type: 'numeric', kind: 'decimal' }],
    ['json', undefined, { type: 'json', kind: 'json' }],
    ['blob', undefined, { type: 'blob', kind: 'binary' }],
    ['longblob', undefined, { type: 'blob', kind: 'binary' }],
    ['', undefined, undefined],
  ])('declares a SQLite column of type "%s" (length %s) as %o', (type, length, expected) => {
    expect(entityColumnType('sqlite', column('c', { type, ...(length ? { length } : {}) }))).toEqual(expected);
  });

  it('serves MySQL enums, sets and years, PostgreSQL json, citext and arrays of text, integers and booleans; not PostgreSQL enums nor other arrays', () => {
    expect(entityColumnType('mysql', column('c', { type: 'enum', enum: ['a'] }))).toEqual({ type: 'enum', kind: 'string' });
    expect(entityColumnType('mysql', column('c', { type: 'set', enum: ['a'] }))).toEqual({ type: 'set', kind: 'string' });
    expect(entityColumnType('mysql', column('c', { type: 'year' }))).toEqual({ type: 'year', kind: 'integer' });
    expect(entityColumnType('postgres', column('c', { type: 'jsonb' }))).toEqual({ type: 'jsonb', kind: 'json' });
    expect(entityColumnType('postgres', column('c', { type: 'citext' }))).toEqual({ type: 'citext', kind: 'string' });
    expect(entityColumnType('postgres', column('c', { type: 'text', array: true }))).toEqual({ type: 'text', kind: 'json' });
    expect(entityColumnType('postgres', column('c', { type: 'numeric', array: true }))).toBeUndefined();
    expect(entityColumnType('postgres', column('c', { type: 'enum', enum: ['a'], enumName: 'mood' }))).toBeUndefined();
    const served = servedSchema({
      kind: 'mysql',
      unread: [],
      views: [],
      tables: [table('film', [column('id', { primary: true }), column('rating', { type: 'enum', enum: ["it's", 'G'], nullable: true })])],
    });
    const source = entitySource(served.tables[0]!, served.tables, entityNames(served.tables), { srcFromEntities: '../..' });
    expect(source).toContain("@Column({ type: 'enum', enum: ['it\\'s', 'G'], nullable: true })");
  });
});

describe('baseline migration', () => {
  it("creates PostgreSQL's bpchar without a length as bpchar, not as character, which is character(1)", () => {
    const customers = table('customers', [
      column('customer_id', { primary: true, type: 'character' }),
      column('code', { type: 'character', length: '5' }),
      column('codes', { type: 'character', array: true, nullable: true }),
    ]);
    const source = (kind: 'postgres' | 'mysql') =>
      baselineMigrationSource('northwind', servedSchema({ kind, tables: [customers], unread: [], views: [] }).tables, [], kind);
    expect(source('postgres')).toContain(
      "columns: [{ name: 'customer_id', type: 'bpchar', isPrimary: true }, { name: 'code', type: 'character', length: '5' }, { name: 'codes', type: 'bpchar', isArray: true, isNullable: true }]",
    );
    // MySQL's CHAR without a length is CHAR(1), and read with that length: kept as it is.
    expect(source('mysql')).toContain("{ name: 'customer_id', type: 'character', isPrimary: true }");
  });
});
