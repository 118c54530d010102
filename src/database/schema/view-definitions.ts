import type { QueryRunner } from 'typeorm';
import type { DatabaseTarget } from '../../config/database-url.js';

/** Something a view uses besides the tables and views of its own database or schema (PostgreSQL, MySQL/MariaDB). */
export interface ViewNeed {
  kind: 'function' | 'type' | 'operator' | 'collation' | 'relation' | 'other';
  /** As SQL would name it: `group_concat`, `public.mpaa_rating`, `other_schema.t`. */
  name: string;
  /** PostgreSQL: the type's name alone, to tell an enum type the baseline migration creates. */
  typeName?: string;
}

/** How a view is made: the statement that creates it (or why there is none), what it reads and needs. */
export interface ViewDefinition {
  /**
   * The statement that creates the view on an empty database of the same kind, from the
   * database's own definition of it (PostgreSQL's pg_get_viewdef, MySQL/MariaDB's
   * information_schema.VIEWS without the database's name, SQLite's own CREATE VIEW); absent when
   * it cannot be read or rewritten (and `unwritable` says why).
   */
  create?: string;
  unwritable?: string;
  /** The tables and views of the same database or schema it reads (on SQLite: every one its SQL names, which may be more). */
  reads: string[];
  /** What else it uses that is not built into the database: functions, types, relations elsewhere. */
  needs: ViewNeed[];
}

/** Schemas whose objects every PostgreSQL database has. */
const PG_BUILT_IN = new Set(['pg_catalog', 'information_schema']);

const PG_VIEWS = `SELECT c.relname AS name, pg_get_viewdef(c.oid) AS definition, array_to_string(c.reloptions, ', ') AS options
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'v' AND n.nspname = current_schema()`;

/** Every object each view's rewrite rule depends on (PostgreSQL records them all in pg_depend), with its schema. */
const PG_VIEW_DEPENDENCIES = `SELECT DISTINCT v.relname AS view,
    CASE d.refclassid WHEN 'pg_class'::regclass THEN 'relation' WHEN 'pg_proc'::regclass THEN 'function' WHEN 'pg_type'::regclass THEN 'type'
      WHEN 'pg_operator'::regclass THEN 'operator' WHEN 'pg_collation'::regclass THEN 'collation' ELSE 'other' END AS kind,
    COALESCE(c.relname, p.proname, t.typname, o.oprname, co.collname, d.refobjid::text) AS name,
    COALESCE(cn.nspname, pn.nspname, tn.nspname, opn.nspname, con.nspname, '') AS schema
  FROM pg_class v
  JOIN pg_namespace vn ON vn.oid = v.relnamespace
  JOIN pg_rewrite r ON r.ev_class = v.oid
  JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid AND d.refobjid <> v.oid
  LEFT JOIN pg_class c ON d.refclassid = 'pg_class'::regclass AND c.oid = d.refobjid LEFT JOIN pg_namespace cn ON cn.oid = c.relnamespace
  LEFT JOIN pg_proc p ON d.refclassid = 'pg_proc'::regclass AND p.oid = d.refobjid LEFT JOIN pg_namespace pn ON pn.oid = p.pronamespace
  LEFT JOIN pg_type t ON d.refclassid = 'pg_type'::regclass AND t.oid = d.refobjid LEFT JOIN pg_namespace tn ON tn.oid = t.typnamespace
  LEFT JOIN pg_operator o ON d.refclassid = 'pg_operator'::regclass AND o.oid = d.refobjid LEFT JOIN pg_namespace opn ON opn.oid = o.oprnamespace
  LEFT JOIN pg_collation co ON d.refclassid = 'pg_collation'::regclass AND co.oid = d.refobjid LEFT JOIN pg_namespace con ON con.oid = co.collnamespace
  WHERE v.relkind = 'v' AND vn.nspname = current_schema()
  ORDER BY 1, 2, 3`;

/** By UTF-16 code units: the same order on every machine. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

async function postgresDefinitions(queryRunner: QueryRunner): Promise<Map<string, ViewDefinition>> {
  const [{ schema }] = (await queryRunner.query('SELECT current_schema() AS schema')) as [{ schema: string }];
  const definitions = new Map<string, ViewDefinition>();
  for (const row of (await queryRunner.query(PG_VIEWS)) as Array<{ name: string; definition: string | null; options: string | null }>) {
    const body = row.definition?.trim().replace(/;$/, '');
    definitions.set(row.name, {
      ...(body
        ? { create: `CREATE VIEW "${row.name}"${row.options ? ` WITH (${row.options})` : ''} AS ${body}` }
        : { unwritable: 'its definition cannot be read' }),
      reads: [],
      needs: [],
    });
  }
  const rows = (await queryRunner.query(PG_VIEW_DEPENDENCIES)) as Array<{
    view: string;
    kind: ViewNeed['kind'];
    name: string;
    schema: string;
  }>;
  for (const row of rows) {
    const definition = definitions.get(row.view);
    if (!definition || PG_BUILT_IN.has(row.schema)) continue;
    if (row.kind === 'relation' && row.schema === schema) {
      if (!definition.reads.includes(row.name)) definition.reads.push(row.name);
    } else {
      definition.needs.push({ kind: row.kind, name: `${row.schema}.${row.name}`, ...(row.kind === 'type' ? { typeName: row.name } : {}) });
    }
  }
  return definitions;
}

const MYSQL_VIEWS =
  'SELECT TABLE_NAME AS name, VIEW_DEFINITION AS definition, CHECK_OPTION AS checkOption, SECURITY_TYPE AS security FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE()';

/** A backquoted identifier at `at` (MySQL doubles a backquote inside one): its name and where it ends, or undefined. */
function backquoted(sql: string, at: number): { name: string; end: number } | undefined {
  if (sql[at] !== '`') return undefined;
  let name = '';
  for (let i = at + 1; i < sql.length; i++) {
    if (sql[i] !== '`') name += sql.charAt(i);
    else if (sql[i + 1] === '`') {
      name += '`';
      i++;
    } else return { name, end: i + 1 };
  }
  return undefined;
}

/** The end of a quoted string starting at `at` (a backslash escapes, a doubled quote is one). */
function stringEnd(sql: string, at: number): number {
  const quote = sql[at];
  for (let i = at + 1; i < sql.length; i++) {
    if (sql[i] === '\\') i++;
    else if (sql[i] === quote) {
      if (sql[i + 1] === quote) i++;
      else return i + 1;
    }
  }
  return sql.length;
}

/**
 * MySQL/MariaDB store a view's definition with every table and stored function of its own
 * database named with the database (`` `shop`.`customer` ``), which another database could not
 * use: it is taken out, each name it qualified being what the view reads (or a function it
 * calls, when `(` follows). Strings are copied as they are. A database name used otherwise (an
 * alias of that name, say) leaves the definition unwritable rather than guessed at.
 */
export function mysqlViewBody(
  definition: string,
  database: string,
  relations: ReadonlySet<string>,
): { body: string; reads: string[]; needs: ViewNeed[] } | { unwritable: string } {
  let body = '';
  const reads: string[] = [];
  const needs: ViewNeed[] = [];
  let i = 0;
  while (i < definition.length) {
    const c = definition[i]!;
    if (c === "'" || c === '"') {
      const end = stringEnd(definition, i);
      body += definition.slice(i, end);
      i = end;
      continue;
    }
    const identifier = backquoted(definition, i);
    if (!identifier) {
      body += c;
      i++;
      continue;
    }
    if (identifier.name !== database) {
      body += definition.slice(i, identifier.end);
      i = identifier.end;
      continue;
    }
    const object = definition[identifier.end] === '.' ? backquoted(definition, identifier.end + 1) : undefined;
    if (!object) return { unwritable: `its definition names its database ${database} otherwise than before a table's name` };
    if (/^\s*\(/.test(definition.slice(object.end))) {
      if (!needs.some((n) => n.name === object.name)) needs.push({ kind: 'function', name: object.name });
    } else if (relations.has(object.name)) {
      if (!reads.includes(object.name)) reads.push(object.name);
    } else {
      return { unwritable: `its definition names ${database}.${object.name}, which is no table or view Tessera read` };
    }
    // The qualifier and its dot go; the object's name stays (copied here: it may be the database's name too).
    body += definition.slice(identifier.end + 1, object.end);
    i = object.end;
  }
  return { body, reads, needs };
}

async function mysqlDefinitions(queryRunner: QueryRunner, relations: ReadonlySet<string>): Promise<Map<string, ViewDefinition>> {
  const [{ database }] = (await queryRunner.query('SELECT DATABASE() AS `database`')) as [{ database: string }];
  const rows = (await queryRunner.query(MYSQL_VIEWS)) as Array<{
    name: string;
    definition: string | null;
    checkOption: string;
    security: string;
  }>;
  const definitions = new Map<string, ViewDefinition>();
  for (const row of rows) {
    // Without the SHOW VIEW privilege the definition reads as empty.
    const made = row.definition
      ? mysqlViewBody(row.definition, database, relations)
      : { unwritable: 'its definition cannot be read (SHOW VIEW)' };
    if ('unwritable' in made) {
      definitions.set(row.name, { unwritable: made.unwritable, reads: [], needs: [] });
      continue;
    }
    const security = row.security === 'INVOKER' ? 'SQL SECURITY INVOKER ' : '';
    const check = row.checkOption === 'CASCADED' || row.checkOption === 'LOCAL' ? ` WITH ${row.checkOption} CHECK OPTION` : '';
    definitions.set(row.name, {
      create: `CREATE ${security}VIEW \`${row.name}\` AS ${made.body}${check}`,
      reads: made.reads.sort(compare),
      needs: made.needs,
    });
  }
  return definitions;
}

/**
 * The names an SQLite statement holds that are tables or views of the database (ignoring case):
 * identifiers bare or quoted ("x", `x`, [x]); strings and comments skipped. A column named like
 * a table counts too: more than the view reads, never less.
 */
export function sqliteNamesIn(sql: string, relations: ReadonlyMap<string, string>): string[] {
  const found = new Set<string>();
  const add = (name: string): void => {
    const relation = relations.get(name.toLowerCase());
    if (relation) found.add(relation);
  };
  let i = 0;
  while (i < sql.length) {
    const rest = sql.slice(i);
    const c = sql[i]!;
    if (rest.startsWith('--')) i = sql.indexOf('\n', i) === -1 ? sql.length : sql.indexOf('\n', i);
    else if (rest.startsWith('/*')) i = sql.indexOf('*/', i + 2) === -1 ? sql.length : sql.indexOf('*/', i + 2) + 2;
    else if (c === "'") i = stringEnd(sql, i);
    else if (c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let name = '';
      let j = i + 1;
      for (; j < sql.length; j++) {
        if (sql[j] !== close) name += sql.charAt(j);
        else if (close !== ']' && sql[j + 1] === close) {
          name += close;
          j++;
        } else break;
      }
      add(name);
      i = j + 1;
    } else {
      const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(rest)?.[0];
      if (word) add(word);
      i += word?.length ?? 1;
    }
  }
  return [...found].sort(compare);
}

async function sqliteDefinitions(queryRunner: QueryRunner, relations: ReadonlySet<string>): Promise<Map<string, ViewDefinition>> {
  const byLowerName = new Map([...relations].map((name) => [name.toLowerCase(), name]));
  const definitions = new Map<string, ViewDefinition>();
  for (const row of (await queryRunner.query("SELECT name, sql FROM sqlite_master WHERE type = 'view'")) as Array<{
    name: string;
    sql: string;
  }>) {
    definitions.set(row.name, {
      create: row.sql,
      reads: sqliteNamesIn(row.sql, byLowerName).filter((name) => name !== row.name),
      needs: [],
    });
  }
  return definitions;
}

/**
 * How each view of the database (or schema) is made, by view name: from PostgreSQL's catalog
 * (pg_get_viewdef, and pg_depend for everything it uses), MySQL/MariaDB's information_schema.VIEWS,
 * SQLite's sqlite_master. `relations`: every table and view name of the database.
 */
export async function viewDefinitions(
  queryRunner: QueryRunner,
  kind: DatabaseTarget['kind'],
  relations: ReadonlySet<string>,
): Promise<Map<string, ViewDefinition>> {
  switch (kind) {
    case 'postgres':
      return postgresDefinitions(queryRunner);
    case 'mysql':
    case 'mariadb':
      return mysqlDefinitions(queryRunner, relations);
    case 'sqlite':
      return sqliteDefinitions(queryRunner, relations);
  }
}
