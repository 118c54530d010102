import type { ColumnKind } from '../data/column-kind.js';
import type { SchemaColumn, SchemaForeignKey, SchemaSnapshot, SchemaTable, SchemaView } from '../database/schema/schema-reader.js';
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

/** A view the generator serves (read-only): its served columns. */
export interface ServedView {
  source: SchemaView;
  columns: ServedColumn[];
}

export interface ServedSchema {
  tables: ServedTable[];
  /** In the order the baseline migration creates them: each after the views it reads. */
  views: ServedView[];
  /** What was left out and why, one line each, e.g. `table event_log: it has no primary key`. */
  skipped: string[];
  /** The generated (computed) columns served read-only, as `table.column`, in table order. */
  computed: string[];
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
  if (column.generatedType) return 'the column stays in the database, which computes it';
  return !column.nullable && column.default === undefined && !column.generated
    ? 'the column stays in the database; it is NOT NULL without a default, so an insert through the API succeeds only where the database fills it, e.g. by a trigger'
    : 'the column stays in the database';
}

/** Why a table cannot be served at all, if it cannot: no key, or a key column Tessera cannot serve. */
function tableProblem(kind: SchemaSnapshot['kind'], table: SchemaTable): string | undefined {
  if (table.primaryKey.length === 0) return 'it has no primary key';
  // A key the database computes: no insert could give it, and an update of what it is computed from would move the row.
  const computedKey = table.columns.find((column) => column.primary && column.generatedType);
  if (computedKey)
    return `its key column ${computedKey.name} is computed by the database (a generated column), which Tessera cannot serve as a key`;
  const keyKind = (column: SchemaColumn): string | undefined => servedType(kind, column)?.kind;
  // Bytes are served as values, not as keys: a key is a URL segment, and filters compare it.
  const key = table.columns.find((column) => column.primary && (keyKind(column) === undefined || keyKind(column) === 'binary'));
  if (!key) return undefined;
  if (keyKind(key) === 'binary') return `its key column ${key.name} has type ${typeName(key)}: Tessera serves bytes as values, not as keys`;
  const problem = RESERVED_PROPERTIES.has(key.name) ? 'is named after a property of every JavaScript object' : `has type ${typeName(key)}`;
  return `its key column ${key.name} ${problem}, which Tessera cannot serve`;
}

/**
 * Splits a database schema into what Tessera serves and what it leaves out: tables without a
 * primary key (or whose key Tessera cannot serve: bytes are served, but not as keys), and columns
 * of types Tessera cannot serve (geometry, tsvector...). A table is never left out for any other column: that column
 * is, and the generator says so. Generated (computed) columns are served read-only (`computed`).
 * Foreign keys to a table left out are left out too.
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
  const computed = tables.flatMap((table) => table.columns.filter((c) => c.generatedType).map((c) => `${table.source.name}.${c.name}`));
  return { tables, views: servedViews(schema, tables, skipped), skipped, computed };
}

/** Why a view's column cannot be served, and that it is left out: as a table's, or (SQLite) an expression, which has no type to serve it by. */
function viewColumnLine(kind: SchemaSnapshot['kind'], view: string, column: SchemaColumn): string {
  return kind === 'sqlite' && column.type === '' && !RESERVED_PROPERTIES.has(column.name)
    ? `column ${view}.${column.name}: an expression SQLite gives no type, which Tessera cannot serve (left out of the view's entity; CAST it in the view, e.g. CAST(... AS TEXT), to serve it)`
    : `column ${view}.${column.name}: ${columnProblem(column)} (left out of the view's entity)`;
}

/**
 * The views Tessera serves, read-only: those with a column it can serve that the baseline
 * migration can create on an empty database, from the database's own definition, after the
 * tables (and views) they read. A view that uses what the migration does not create (a table
 * left out, a function, a type of its own) is left out, and the generator says why: the project
 * must start on an empty database as on the one it came from. Its columns of types Tessera
 * cannot serve are left out of its entity.
 */
function servedViews(schema: SchemaSnapshot, tables: ServedTable[], skipped: string[]): ServedView[] {
  const tableNames = new Set(tables.map((t) => t.source.name));
  // Enum types the baseline migration creates with their tables' columns (PostgreSQL).
  const types = new Set(tables.flatMap((t) => t.source.columns.flatMap((c) => (c.enumName === undefined ? [] : [c.enumName]))));
  const candidates = new Map<string, { view: SchemaView; columns: ServedColumn[]; columnLines: string[] }>();
  for (const view of schema.views) {
    const columns: ServedColumn[] = [];
    const columnLines: string[] = [];
    for (const column of view.columns) {
      const served = servedType(schema.kind, column);
      if (served) columns.push({ ...column, ...served, primary: false });
      else columnLines.push(viewColumnLine(schema.kind, view.name, column));
    }
    if (columns.length === 0) skipped.push(`view ${view.name}: none of its columns can be served`);
    else if (!view.create)
      skipped.push(
        `view ${view.name}: ${view.unwritable ?? 'its definition cannot be read'}, so the baseline migration could not create it on an empty database`,
      );
    else {
      const need = view.needs.find((n) => !(n.kind === 'type' && n.typeName !== undefined && types.has(n.typeName)));
      if (need)
        skipped.push(
          `view ${view.name}: it uses ${need.kind} ${need.name}, which the baseline migration does not create on an empty database`,
        );
      else candidates.set(view.name, { view, columns, columnLines });
    }
  }
  // Each view after those it reads; a view that reads what is not served (or a loop of views) stays behind.
  const ordered: ServedView[] = [];
  const made = new Set<string>();
  for (let progress = true; progress;) {
    progress = false;
    for (const [name, candidate] of candidates) {
      if (!candidate.view.reads.every((read) => tableNames.has(read) || made.has(read))) continue;
      ordered.push({ source: candidate.view, columns: candidate.columns });
      skipped.push(...candidate.columnLines);
      made.add(name);
      candidates.delete(name);
      progress = true;
    }
  }
  for (const [name, { view }] of candidates) {
    const missing = view.reads.find((read) => !tableNames.has(read) && !made.has(read))!;
    const what = schema.views.some((v) => v.name === missing) ? 'view' : 'table';
    skipped.push(
      `view ${name}: it reads ${what} ${missing}, which is not served, so the baseline migration could not create it on an empty database`,
    );
  }
  return ordered;
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
