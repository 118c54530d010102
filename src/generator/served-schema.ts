import type { ColumnKind } from '../data/column-kind.js';
import type { SchemaColumn, SchemaForeignKey, SchemaSnapshot, SchemaTable } from '../database/schema/schema-reader.js';
import { entityColumnType, type EntityColumnType } from './column-types.js';
import { RESERVED_PROPERTIES } from './reserved-properties.js';

/** A column the generated entity declares: as read, with the type the entity declares (see `entityColumnType`) and its API kind. */
export interface ServedColumn extends SchemaColumn {
  kind: ColumnKind;
}

/** A table the generator serves: its served columns, and the foreign keys that become relations. */
export interface ServedTable {
  /** The table as read, every column included: the baseline migration creates exactly this. */
  source: SchemaTable;
  columns: ServedColumn[];
  /** Foreign keys between served tables on served columns. */
  relations: SchemaForeignKey[];
  /** Relations declared `nullable: true` although their columns are NOT NULL: each closes a loop (see `loopClosers`). */
  loopClosers: Set<SchemaForeignKey>;
}

export interface ServedSchema {
  tables: ServedTable[];
  /** What was left out and why, one line each, e.g. `table event_log: it has no primary key`. */
  skipped: string[];
}

/** The type as SQL spells it: `integer[]` for an array, a PostgreSQL enum by its own name. */
const typeName = (column: SchemaColumn): string => `${column.enumName ?? (column.type || '(none)')}${column.array ? '[]' : ''}`;

/** How the entity declares the column, or undefined when Tessera cannot serve it (by its type, or its name). */
function servedType(kind: SchemaSnapshot['kind'], column: SchemaColumn): EntityColumnType | undefined {
  return RESERVED_PROPERTIES.has(column.name) ? undefined : entityColumnType(kind, column);
}

/** Why Tessera cannot serve a column: its name (a property of every JavaScript object), or its type. */
function columnProblem(column: SchemaColumn): string {
  return RESERVED_PROPERTIES.has(column.name)
    ? 'named after a property of every JavaScript object, which Tessera cannot serve'
    : `type ${typeName(column)}, which Tessera cannot serve`;
}

/** What leaving a column out means for its table: inserts cannot set it. */
function leftOutNote(column: SchemaColumn): string {
  return !column.nullable && column.default === undefined && !column.generated
    ? 'the column stays in the database; it is NOT NULL without a default, so an insert through the API succeeds only where the database fills it, e.g. by a trigger'
    : 'the column stays in the database';
}

/** Why a table cannot be served at all, if it cannot: no key, or a key column Tessera cannot serve. */
function tableProblem(kind: SchemaSnapshot['kind'], table: SchemaTable): string | undefined {
  if (table.primaryKey.length === 0) return 'it has no primary key';
  const key = table.columns.find((column) => column.primary && !servedType(kind, column));
  if (!key) return undefined;
  const problem = RESERVED_PROPERTIES.has(key.name) ? 'is named after a property of every JavaScript object' : `has type ${typeName(key)}`;
  return `its key column ${key.name} ${problem}, which Tessera cannot serve`;
}

/**
 * Splits a database schema into what Tessera serves and what it leaves out: tables without a
 * primary key (or whose key Tessera cannot serve), and columns of types Tessera cannot serve
 * (binary, geometry, tsvector...). A table is never left out for any other column: that column
 * is, and the generator says so. Foreign keys to a table left out are left out too.
 */
export function servedSchema(schema: SchemaSnapshot): ServedSchema {
  const skipped: string[] = [...schema.unread];
  const kept = schema.tables.filter((table) => {
    const problem = tableProblem(schema.kind, table);
    if (problem) skipped.push(`table ${table.name}: ${problem}`);
    return !problem;
  });
  const keptNames = new Set(kept.map((t) => t.name));
  const tables = kept.map((table): ServedTable => {
    const columns: ServedColumn[] = [];
    for (const column of table.columns) {
      const served = servedType(schema.kind, column);
      if (served) columns.push({ ...column, ...served });
      else skipped.push(`column ${table.name}.${column.name}: ${columnProblem(column)} (${leftOutNote(column)})`);
    }
    const served = new Set(columns.map((c) => c.name));
    const relations = table.foreignKeys.filter((fk) => {
      if (!keptNames.has(fk.referencedTable)) {
        skipped.push(`relation ${table.name}(${fk.columns.join(', ')}) -> ${fk.referencedTable}: that table is not served`);
        return false;
      }
      if (!fk.columns.every((c) => served.has(c))) {
        skipped.push(`relation ${table.name}(${fk.columns.join(', ')}) -> ${fk.referencedTable}: a column of it is not served`);
        return false;
      }
      return true;
    });
    return { source: table, columns, relations, loopClosers: new Set<SchemaForeignKey>() };
  });
  markLoopClosers(tables);
  return { tables, skipped };
}

/** Whether every column of the relation is NOT NULL: TypeORM then saves the parent first. */
function required(table: ServedTable, fk: SchemaForeignKey): boolean {
  return !fk.columns.every((name) => table.columns.find((c) => c.name === name)?.nullable);
}

/**
 * TypeORM refuses entities whose NOT NULL many-to-one relations form a loop (Sakila's store and
 * staff refer to each other; a NOT NULL self-reference is one too): it could not order its saves.
 * The relation is only TypeORM's view: declared `nullable: true`, it breaks the loop while the
 * column and the foreign key stay NOT NULL. A depth-first walk in table order marks each relation
 * that leads back into the walk's current path, the fewest that leave no loop in that order, and
 * the same ones on every run.
 */
function markLoopClosers(tables: ServedTable[]): void {
  const byName = new Map(tables.map((t) => [t.source.name, t]));
  const onPath = new Set<ServedTable>();
  const done = new Set<ServedTable>();
  const walk = (table: ServedTable): void => {
    onPath.add(table);
    for (const fk of table.relations) {
      const parent = byName.get(fk.referencedTable);
      if (!parent || !required(table, fk) || done.has(parent)) continue;
      if (onPath.has(parent)) table.loopClosers.add(fk);
      else walk(parent);
    }
    onPath.delete(table);
    done.add(table);
  };
  for (const table of tables) if (!done.has(table)) walk(table);
}
