import type { SchemaForeignKey } from '../database/schema/schema-reader.js';
import { RESERVED_PROPERTIES } from './reserved-properties.js';
import type { ServedTable, ServedView } from './served-schema.js';

/** Names an entity file imports or declares; a class must not take one of them. */
const TAKEN = new Set([
  'Column',
  'DecimalString',
  'Entity',
  'Index',
  'JoinColumn',
  'ManyToOne',
  'OneToMany',
  'PrimaryColumn',
  'PrimaryGeneratedColumn',
  'Unique',
  'ViewColumn',
  'ViewEntity',
  'Date',
  'Object',
  'String',
  'Number',
  'Boolean',
  'Function',
  'Array',
  'Promise',
  'Error',
  'Map',
  'Set',
  'ProjectDefinition',
  // Globals the compiled decorators call (Reflect.metadata) or the runtime relies on.
  'Reflect',
  'Symbol',
]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as TypeScript source: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : quote(name);
}

/** Backslash, single quote, control characters and line separators escaped for a single-quoted literal. */
function escaped(text: string): string {
  return text
    .replaceAll('\\', '\\\\')
    .replaceAll("'", "\\'")
    .replaceAll('\n', '\\n')
    .replaceAll('\r', '\\r')
    .replace(/\p{Cc}|[\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A string literal in single quotes, as Prettier writes it. */
export function quote(text: string): string {
  return `'${escaped(text)}'`;
}

/** A database name as it may appear inside a generated `/** ... *\/` comment: on one line, never closing it. */
export function commentText(text: string): string {
  return escaped(text).replaceAll('*/', '*\\/');
}

/** Property access on a variable: `row.name` or `row['odd name']`. */
export function access(variable: string, name: string): string {
  return IDENTIFIER.test(name) ? `${variable}.${name}` : `${variable}[${quote(name)}]`;
}

function pascalCase(table: string): string {
  const words = table.split(/[^A-Za-z0-9]+|_/).filter((w) => w.length > 0);
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  if (name.length === 0) return 'Table';
  return /^[0-9]/.test(name) ? `T${name}` : name;
}

/** At most this long, so that `<name>N.entity.ts` stays within a file system's 255 bytes (SQLite names have no limit). */
const FILE_STEM_MAX = 100;

function kebabCase(table: string): string {
  const name = table
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, FILE_STEM_MAX)
    .replace(/^-+|-+$/g, '');
  return name.length === 0 ? 'table' : name;
}

function unique(wanted: string, used: Set<string>, caseInsensitive = false): string {
  const key = (n: string): string => (caseInsensitive ? n.toLowerCase() : n);
  let name = wanted;
  for (let i = 2; used.has(key(name)); i++) name = `${wanted}${i}`;
  used.add(key(name));
  return name;
}

export interface RelationNames {
  /** The many-to-one property on the table holding the foreign key. */
  manyToOne: string;
  /** The one-to-many property on the referenced table. */
  oneToMany: string;
}

/** Class, file and relation names of every served table (and class and file names of every served view), the same on every run. */
export interface EntityNames {
  className: Map<string, string>;
  /** File name without extension, e.g. `order-line.entity` (a view's `order-totals.view`). */
  fileName: Map<string, string>;
  relation: Map<SchemaForeignKey, RelationNames>;
}

/**
 * Names the entities. Classes are the table names in PascalCase; files kebab-case (unique
 * ignoring case, for case-insensitive file systems). A many-to-one relation is named after its
 * column without `_id` (`parent_id` → `parent`), else after the table it leads to; its inverse
 * after the child table with `_list` (`product_list`). A name taken by a column or an earlier
 * relation gets a number.
 */
export function entityNames(tables: ServedTable[], views: ServedView[] = []): EntityNames {
  const classes = new Set<string>(TAKEN);
  const files = new Set<string>();
  const className = new Map<string, string>();
  const fileName = new Map<string, string>();
  const usedProperties = new Map<string, Set<string>>();
  for (const table of tables) {
    className.set(table.source.name, unique(pascalCase(table.source.name), classes));
    fileName.set(table.source.name, `${unique(kebabCase(table.source.name), files, true)}.entity`);
    usedProperties.set(table.source.name, new Set([...RESERVED_PROPERTIES, ...table.columns.map((c) => c.name)]));
  }
  // Views after the tables, so that a table keeps the names it had before its database had views.
  for (const view of views) {
    className.set(view.source.name, unique(pascalCase(view.source.name), classes));
    fileName.set(view.source.name, `${unique(kebabCase(view.source.name), files, true)}.view`);
  }
  const relation = new Map<SchemaForeignKey, RelationNames>();
  for (const table of tables) {
    for (const fk of table.relations) {
      const single = fk.columns.length === 1 ? fk.columns[0]! : undefined;
      const stem = single && /.[_]id$/i.test(single) ? single.slice(0, -3) : fk.referencedTable;
      const manyToOne = unique(stem, usedProperties.get(table.source.name)!);
      const oneToMany = unique(`${table.source.name}_list`, usedProperties.get(fk.referencedTable)!);
      relation.set(fk, { manyToOne, oneToMany });
    }
  }
  return { className, fileName, relation };
}
