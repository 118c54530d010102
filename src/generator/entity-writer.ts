import { columnKindOfTypeName } from '../data/column-kind.js';
import type { SchemaForeignKey } from '../database/schema/schema-reader.js';
import type { EntityNames } from './names.js';
import { access, commentText, propertyKey, quote } from './names.js';
import type { ServedColumn, ServedTable, ServedView } from './served-schema.js';

/** Where the generated files import Tessera's own modules from (`../..` for `src/project/entities/`). */
export interface ImportBase {
  /** The path from an entity file to `src/`, e.g. `../..`. */
  srcFromEntities: string;
}

const FLOATS = new Set(['float', 'double', 'real', 'double precision', 'float4', 'float8']);

const ARRAY_ITEM_TYPES: Record<string, string> = { string: 'string', integer: 'number', boolean: 'boolean' };

function propertyType(column: ServedColumn): string {
  const base = column.array
    ? `Array<${ARRAY_ITEM_TYPES[columnKindOfTypeName(column.type) ?? ''] ?? 'unknown'} | null>`
    : column.kind === 'json'
      ? 'unknown'
      : column.kind === 'decimal'
        ? FLOATS.has(column.type.toLowerCase())
          ? 'number'
          : 'DecimalString'
        : column.kind === 'integer'
          ? 'number'
          : column.kind === 'boolean'
            ? 'boolean'
            : column.kind === 'datetime'
              ? 'Date'
              : column.kind === 'binary'
                ? 'Buffer'
                : 'string';
  return column.nullable && !column.primary ? `${base} | null` : base;
}

/** The options that say a column's type, a table's or a view's. */
function typeOptions(column: ServedColumn): string[] {
  const options = [`type: ${quote(column.type)}`];
  if (column.length !== undefined) options.push(`length: ${/^[0-9]+$/.test(column.length) ? column.length : quote(column.length)}`);
  if (column.precision !== undefined) options.push(`precision: ${column.precision}`);
  if (column.scale !== undefined) options.push(`scale: ${column.scale}`);
  if (column.unsigned) options.push('unsigned: true');
  if (column.array) options.push('array: true');
  if (column.enum && (column.type === 'enum' || column.type === 'set')) options.push(`enum: [${column.enum.map(quote).join(', ')}]`);
  return options;
}

function columnOptions(column: ServedColumn, withGeneration: boolean): string {
  const options = typeOptions(column);
  if (column.onUpdate !== undefined) options.push(`onUpdate: ${quote(column.onUpdate)}`);
  if (column.nullable && !column.primary) options.push('nullable: true');
  if (column.default !== undefined && !(withGeneration && column.generated)) options.push(`default: () => ${quote(column.default)}`);
  if (column.generatedType) options.push('insert: false', 'update: false');
  return `{ ${options.join(', ')} }`;
}

function columnDecorator(column: ServedColumn): string {
  if (column.primary && column.generated && column.generated !== 'rowid') {
    const strategy = column.generated === 'uuid' ? 'uuid' : column.generated === 'identity' ? 'identity' : 'increment';
    // A uuid key takes no type (TypeORM's overload for it has none): the strategy says it.
    if (strategy === 'uuid') return `@PrimaryGeneratedColumn('uuid')`;
    return `@PrimaryGeneratedColumn(${quote(strategy)}, ${columnOptions(column, true)})`;
  }
  return `${column.primary ? '@PrimaryColumn' : '@Column'}(${columnOptions(column, false)})`;
}

function indexArguments(name: string | undefined, columns: string[]): string {
  const list = `[${columns.map(quote).join(', ')}]`;
  return name === undefined ? list : `${quote(name)}, ${list}`;
}

function manyToOne(table: ServedTable, fk: SchemaForeignKey, names: EntityNames): string[] {
  const target = names.className.get(fk.referencedTable)!;
  const relation = names.relation.get(fk)!;
  const loopCloser = table.loopClosers.has(fk);
  const nullable = loopCloser || fk.columns.every((name) => table.columns.find((c) => c.name === name)?.nullable);
  const options = [`nullable: ${nullable}`];
  if (fk.onDelete) options.push(`onDelete: ${quote(fk.onDelete)}`);
  if (fk.onUpdate) options.push(`onUpdate: ${quote(fk.onUpdate)}`);
  const joins = fk.columns.map((column, i) => {
    const parts = [`name: ${quote(column)}`, `referencedColumnName: ${quote(fk.referencedColumns[i]!)}`];
    if (fk.name !== undefined) parts.push(`foreignKeyConstraintName: ${quote(fk.name)}`);
    return `{ ${parts.join(', ')} }`;
  });
  return [
    ...(loopCloser
      ? [
          '  // nullable for TypeORM only: this relation closes a loop of NOT NULL foreign keys, which TypeORM refuses;',
          '  // the column and the foreign key stay NOT NULL.',
        ]
      : []),
    `  @ManyToOne(${quote(target)}, (parent: ${target}) => ${access('parent', relation.oneToMany)}, { ${options.join(', ')} })`,
    `  @JoinColumn(${joins.length === 1 ? joins[0]! : `[${joins.join(', ')}]`})`,
    `  ${propertyKey(relation.manyToOne)}?: ${target};`,
  ];
}

/** The `<table>.entity.ts` of one served table. */
export function entitySource(table: ServedTable, tables: ServedTable[], names: EntityNames, base: ImportBase): string {
  const className = names.className.get(table.source.name)!;
  const children = tables.flatMap((child) =>
    child.relations.filter((fk) => fk.referencedTable === table.source.name).map((fk) => ({ child, fk })),
  );
  const related = new Set<string>([...table.relations.map((fk) => fk.referencedTable), ...children.map(({ child }) => child.source.name)]);
  related.delete(table.source.name);

  const servedNames = new Set(table.columns.map((c) => c.name));
  const covered = (columns: string[]): boolean => columns.every((c) => servedNames.has(c));
  const uniques = table.source.uniques.filter((u) => covered(u.columns));
  const indices = table.source.indices.filter((i) => covered(i.columns));

  const typeormImports = new Set<string>(['Entity']);
  const body: string[][] = [];
  for (const column of table.columns) {
    const decorator = columnDecorator(column);
    typeormImports.add(decorator.slice(1, decorator.indexOf('(')));
    body.push([
      // The expression is left to the database and the baseline migration: no text of the database's reaches a comment.
      ...(column.generatedType ? ['  // Computed by the database (a generated column): rows read it, writes cannot set it.'] : []),
      `  ${decorator}`,
      `  ${propertyKey(column.name)}!: ${propertyType(column)};`,
    ]);
  }
  for (const fk of table.relations) {
    typeormImports.add('ManyToOne').add('JoinColumn');
    body.push(manyToOne(table, fk, names));
  }
  for (const { child, fk } of children) {
    typeormImports.add('OneToMany');
    const childClass = names.className.get(child.source.name)!;
    const relation = names.relation.get(fk)!;
    body.push([
      `  @OneToMany(${quote(childClass)}, (child: ${childClass}) => ${access('child', relation.manyToOne)})`,
      `  ${propertyKey(relation.oneToMany)}?: ${childClass}[];`,
    ]);
  }
  if (uniques.length > 0) typeormImports.add('Unique');
  if (indices.length > 0) typeormImports.add('Index');

  const lines: string[] = [`import { ${[...typeormImports].sort().join(', ')} } from 'typeorm';`];
  if (table.columns.some((c) => propertyType(c).startsWith('DecimalString')))
    lines.push(`import type { DecimalString } from '${base.srcFromEntities}/data/decimal-string.js';`);
  for (const name of [...related].sort()) {
    lines.push(`import type { ${names.className.get(name)!} } from './${names.fileName.get(name)!}.js';`);
  }
  lines.push('', `/** Table ${commentText(table.source.name)}, as generated from the database (\`npm run generate\`). */`);
  lines.push(`@Entity({ name: ${quote(table.source.name)} })`);
  for (const u of uniques) lines.push(`@Unique(${indexArguments(u.name, u.columns)})`);
  for (const i of indices) {
    const options = [...(i.unique ? ['unique: true'] : []), ...(i.fulltext ? ['fulltext: true'] : [])];
    lines.push(`@Index(${indexArguments(i.name, i.columns)}${options.length > 0 ? `, { ${options.join(', ')} }` : ''})`);
  }
  lines.push(`export class ${className} {`);
  lines.push(body.map((member) => member.join('\n')).join('\n\n'));
  lines.push('}', '');
  return lines.join('\n');
}

/**
 * The `<view>.view.ts` of one served view: a `@ViewEntity` TypeORM never creates or changes
 * (`synchronize: false`: the baseline migration creates the view), each served column a
 * `@ViewColumn` with its type. It declares no key: its rows are served without one.
 */
export function viewEntitySource(view: ServedView, names: EntityNames, base: ImportBase): string {
  const className = names.className.get(view.source.name)!;
  const lines: string[] = [
    "import { ViewEntity } from 'typeorm';",
    ...(view.columns.some((c) => propertyType(c).startsWith('DecimalString'))
      ? [`import type { DecimalString } from '${base.srcFromEntities}/data/decimal-string.js';`]
      : []),
    `import { ViewColumn } from '${base.srcFromEntities}/data/view-column.js';`,
    '',
    `/**`,
    ` * View ${commentText(view.source.name)}, as generated from the database (\`npm run generate\`): served read-only,`,
    ' * without a key. Declare one (`primary: true` on its columns) only if the view cannot hold two rows',
    ' * with the same values in them: its rows then have an href and a URL of their own.',
    ' */',
    `@ViewEntity({ name: ${quote(view.source.name)}, synchronize: false })`,
    `export class ${className} {`,
    view.columns
      .map((column) => {
        const options = typeOptions(column);
        if (column.nullable) options.push('nullable: true');
        return [`  @ViewColumn({ ${options.join(', ')} })`, `  ${propertyKey(column.name)}!: ${propertyType(column)};`].join('\n');
      })
      .join('\n\n'),
    '}',
    '',
  ];
  return lines.join('\n');
}
