import type { SchemaColumn, SchemaForeignKey, SchemaIndex, SchemaSnapshot } from '../database/schema/schema-reader.js';
import { quote } from './names.js';
import type { ServedTable, ServedView } from './served-schema.js';

/** Fixed, so that generating twice from the same database writes the same files. */
export const BASELINE_TIMESTAMP = 1764100000000;
export const BASELINE_CLASS = `Baseline${BASELINE_TIMESTAMP}`;
export const BASELINE_FILE = `${BASELINE_TIMESTAMP}-baseline`;

/**
 * The type the baseline creates a column with. PostgreSQL's `bpchar` without a length (Northwind's
 * keys) is read as `character`, which created without a length is `character(1)`: it is created as
 * `bpchar` again (its entity keeps `character`, the name TypeORM's driver knows and reads it by).
 */
function createdType(kind: SchemaSnapshot['kind'], column: SchemaColumn): string {
  return kind === 'postgres' && column.type === 'character' && column.length === undefined ? 'bpchar' : column.type;
}

function columnOptions(kind: SchemaSnapshot['kind'], column: SchemaColumn): string {
  const options = [`name: ${quote(column.name)}`, `type: ${quote(createdType(kind, column))}`];
  if (column.length !== undefined) options.push(`length: ${quote(column.length)}`);
  if (column.precision !== undefined) options.push(`precision: ${column.precision}`);
  if (column.scale !== undefined) options.push(`scale: ${column.scale}`);
  if (column.unsigned) options.push('unsigned: true');
  if (column.array) options.push('isArray: true');
  if (column.onUpdate !== undefined) options.push(`onUpdate: ${quote(column.onUpdate)}`);
  if (column.enum) options.push(`enum: [${column.enum.map(quote).join(', ')}]`);
  if (column.enumName !== undefined) options.push(`enumName: ${quote(column.enumName)}`);
  if (column.primary) options.push('isPrimary: true');
  if (column.generated) options.push('isGenerated: true', `generationStrategy: ${quote(column.generated)}`);
  if (column.nullable) options.push('isNullable: true');
  if (column.default !== undefined) options.push(`default: ${quote(column.default)}`);
  if (column.generatedType)
    options.push(`generatedType: ${quote(column.generatedType)}`, `asExpression: ${quote(column.asExpression ?? '')}`);
  return `{ ${options.join(', ')} }`;
}

function indexOptions(index: SchemaIndex, withUnique: boolean): string {
  const options = [];
  if (index.name !== undefined) options.push(`name: ${quote(index.name)}`);
  options.push(`columnNames: [${index.columns.map(quote).join(', ')}]`);
  if (withUnique && index.unique) options.push('isUnique: true');
  if (index.fulltext) options.push('isFulltext: true');
  return `{ ${options.join(', ')} }`;
}

function foreignKeyOptions(fk: SchemaForeignKey): string {
  const options = [];
  if (fk.name !== undefined) options.push(`name: ${quote(fk.name)}`);
  options.push(
    `columnNames: [${fk.columns.map(quote).join(', ')}]`,
    `referencedTableName: ${quote(fk.referencedTable)}`,
    `referencedColumnNames: [${fk.referencedColumns.map(quote).join(', ')}]`,
  );
  if (fk.onDelete) options.push(`onDelete: ${quote(fk.onDelete)}`);
  if (fk.onUpdate) options.push(`onUpdate: ${quote(fk.onUpdate)}`);
  return `{ ${options.join(', ')} }`;
}

/**
 * The order to create the tables in: each after the tables its foreign keys lead to, by name
 * among equals. Keys of a cycle (a → b → a) are added after every table exists (`later`), except
 * those of a table `inline` keeps whole (see `baselineMigrationSource`).
 */
function creationOrder(
  tables: ServedTable[],
  inline: (table: ServedTable) => boolean,
): { order: ServedTable[]; later: Map<ServedTable, SchemaForeignKey[]> } {
  const names = new Set(tables.map((t) => t.source.name));
  const order: ServedTable[] = [];
  const created = new Set<string>();
  const later = new Map<ServedTable, SchemaForeignKey[]>();
  const pending = [...tables];
  while (pending.length > 0) {
    const ready = (t: ServedTable): boolean =>
      t.source.foreignKeys.every(
        (fk) => !names.has(fk.referencedTable) || fk.referencedTable === t.source.name || created.has(fk.referencedTable),
      );
    let index = pending.findIndex(ready);
    if (index === -1) {
      // A cycle: create the first pending table now and add its keys to pending tables afterwards.
      index = 0;
      const table = pending[0]!;
      if (!inline(table))
        later.set(
          table,
          table.source.foreignKeys.filter(
            (fk) => names.has(fk.referencedTable) && fk.referencedTable !== table.source.name && !created.has(fk.referencedTable),
          ),
        );
    }
    const [table] = pending.splice(index, 1);
    order.push(table!);
    created.add(table!.source.name);
  }
  return { order, later };
}

/** Whether a view of that name exists in the database (or schema) the migration runs on, per database kind. */
const VIEW_EXISTS: Record<SchemaSnapshot['kind'], string> = {
  sqlite: "SELECT 1 AS found FROM sqlite_master WHERE type = 'view' AND name = ?",
  mysql: 'SELECT 1 AS found FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
  mariadb: 'SELECT 1 AS found FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
  postgres: 'SELECT 1 AS found FROM information_schema.views WHERE table_schema = current_schema() AND table_name = $1',
};

/** A view's name in SQL: between backquotes on MySQL/MariaDB, double quotes elsewhere (the quote doubled inside). */
function sqlName(kind: SchemaSnapshot['kind'], name: string): string {
  const q = kind === 'mysql' || kind === 'mariadb' ? '`' : '"';
  return `${q}${name.replaceAll(q, q + q)}${q}`;
}

/**
 * The baseline migration: creates the served tables exactly as they are in the database the
 * project was generated from (every column, unique constraint, index and foreign key between
 * them), then the served views from that database's own definitions, each after what it reads.
 * On that database it finds every table and view there and does nothing, so TypeORM records it
 * as applied without changing a thing; on an empty one it creates them all; anything in between
 * is refused, naming what exists. Tables with generated (computed) columns are created through
 * Tessera's `createTableWithGeneratedColumns`, and read (to drop them or a key of theirs) through
 * `withoutTypeormMetadata`, imported from `srcFromMigrations` (the path from the migrations
 * folder to `src/`): TypeORM would note their expressions in a table of its own, and look them up
 * there, which the database lacks.
 */
export function baselineMigrationSource(
  projectName: string,
  tables: ServedTable[],
  views: ServedView[] = [],
  kind: SchemaSnapshot['kind'] = 'sqlite',
  srcFromMigrations = '../..',
): string {
  const names = new Set(tables.map((t) => t.source.name));
  const computed = (table: ServedTable): boolean => table.source.columns.some((c) => c.generatedType);
  // SQLite takes a key to a table it has not created yet, and adds one later only by rebuilding the
  // table, which TypeORM would do without the expressions of its generated columns: such a table is created with every key.
  const { order, later } = creationOrder(tables, (table) => kind === 'sqlite' && computed(table));
  const all = views.length > 0 ? '[...TABLES, ...VIEWS.map((view) => view.name)]' : 'TABLES';
  const anyComputed = tables.some(computed);
  const lines = [
    `import { Table, ${later.size > 0 ? 'TableForeignKey, ' : ''}type MigrationInterface, type QueryRunner } from 'typeorm';`,
    ...(anyComputed
      ? [
          `import { createTableWithGeneratedColumns, withoutTypeormMetadata } from '${srcFromMigrations}/database/schema/generated-columns.js';`,
        ]
      : []),
    '',
    `/** The tables of ${projectName}, in the order they are created (each after those it refers to). */`,
    `const TABLES: string[] = [${order.map((t) => quote(t.source.name)).join(', ')}];`,
    ...(views.length > 0
      ? [
          '',
          `/** The views of ${projectName}, in the order they are created (each after those it reads), as the database defined them. */`,
          'const VIEWS: Array<{ name: string; create: string; drop: string }> = [',
          ...views.map(
            (view) =>
              `  { name: ${quote(view.source.name)}, create: ${quote(view.source.create!)}, drop: ${quote(`DROP VIEW ${sqlName(kind, view.source.name)}`)} },`,
          ),
          '];',
          '',
          '/** Whether a view of that name exists. */',
          `const VIEW_EXISTS = ${quote(VIEW_EXISTS[kind])};`,
        ]
      : []),
    '',
    '/**',
    ` * The schema ${projectName} was generated from (\`npm run generate\`). On that database every table`,
    ` * ${views.length > 0 ? 'and view ' : ''}exists already: nothing is done, and TypeORM records the migration as applied. On an empty`,
    ' * database it creates them all; when only some exist, it stops and names them.',
    ' */',
    `export class ${BASELINE_CLASS} implements MigrationInterface {`,
    `  name = ${quote(BASELINE_CLASS)};`,
    '',
    '  async up(queryRunner: QueryRunner): Promise<void> {',
    '    const existing: string[] = [];',
    '    for (const table of TABLES) if (await queryRunner.hasTable(table)) existing.push(table);',
    ...(views.length > 0
      ? [
          '    for (const view of VIEWS) {',
          '      if (((await queryRunner.query(VIEW_EXISTS, [view.name])) as unknown[]).length > 0) existing.push(view.name);',
          '    }',
          '    if (existing.length === TABLES.length + VIEWS.length) return;',
        ]
      : ['    if (existing.length === TABLES.length) return;']),
    '    if (existing.length > 0) {',
    '      throw new Error(',
    `        \`The baseline migration creates \${${all}.join(', ')}, but \${existing.join(', ')} exist already: point Tessera at the database the project was generated from, or at an empty one.\`,`,
    '      );',
    '    }',
  ];
  for (const table of order) {
    const deferred = new Set(later.get(table) ?? []);
    const foreignKeys = table.source.foreignKeys.filter((fk) => names.has(fk.referencedTable) && !deferred.has(fk));
    const parts = [`name: ${quote(table.source.name)}`, `columns: [${table.source.columns.map((c) => columnOptions(kind, c)).join(', ')}]`];
    if (table.source.uniques.length > 0) parts.push(`uniques: [${table.source.uniques.map((u) => indexOptions(u, false)).join(', ')}]`);
    if (table.source.indices.length > 0) parts.push(`indices: [${table.source.indices.map((i) => indexOptions(i, true)).join(', ')}]`);
    if (foreignKeys.length > 0) parts.push(`foreignKeys: [${foreignKeys.map(foreignKeyOptions).join(', ')}]`);
    const created = `new Table({ ${parts.join(', ')} })`;
    lines.push(
      computed(table)
        ? `    await createTableWithGeneratedColumns(queryRunner, ${created});`
        : `    await queryRunner.createTable(${created});`,
    );
  }
  // TypeORM reads a table before it adds or drops a key: one with generated columns, without its typeorm_metadata table.
  const readingIt = (table: ServedTable, call: string): string =>
    computed(table) ? `await withoutTypeormMetadata(queryRunner, () => ${call});` : `await ${call};`;
  for (const [table, foreignKeys] of later) {
    for (const fk of foreignKeys) {
      lines.push(
        `    ${readingIt(table, `queryRunner.createForeignKey(${quote(table.source.name)}, new TableForeignKey(${foreignKeyOptions(fk)}))`)}`,
      );
    }
  }
  if (views.length > 0) lines.push('    for (const view of VIEWS) await queryRunner.query(view.create);');
  lines.push('  }', '', '  async down(queryRunner: QueryRunner): Promise<void> {');
  if (views.length > 0) lines.push('    for (const view of [...VIEWS].reverse()) await queryRunner.query(view.drop);');
  for (const [table, foreignKeys] of later) {
    for (const fk of foreignKeys) {
      lines.push(
        `    ${readingIt(table, `queryRunner.dropForeignKey(${quote(table.source.name)}, new TableForeignKey(${foreignKeyOptions(fk)}))`)}`,
      );
    }
  }
  lines.push(
    anyComputed
      ? '    for (const table of [...TABLES].reverse()) await withoutTypeormMetadata(queryRunner, () => queryRunner.dropTable(table));'
      : '    for (const table of [...TABLES].reverse()) await queryRunner.dropTable(table);',
    '  }',
    '}',
    '',
  );
  return lines.join('\n');
}
