import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';
import type { NamingStrategyInterface } from 'typeorm';
import { NameLookup } from '../name-lookup.js';

/**
 * Which constraint a refused write broke, in the client's terms: the kind, the table and its
 * columns (and the table a foreign key refers to). Every name here comes from entity metadata:
 * a name the driver reports is used only once it is found there, so neither SQL text, a raw
 * constraint name nor a value ever reaches the message.
 */
export interface ConstraintViolation {
  kind: 'foreign key' | 'not null' | 'unique' | 'check';
  table: string;
  columns: string[];
  /** Foreign keys: the table the columns refer to. */
  referencedTable?: string;
  /** Foreign keys: the written row is still referenced (a delete, or a key changed); `table` is the written one. */
  stillReferenced?: boolean;
}

/** `foreign key: lineitem.product_number → product`, `not null: customer.credit_limit`, `unique: product.name`. */
export function describeViolation(violation: ConstraintViolation): string {
  const columns = violation.columns.length > 0 ? `${violation.table}.${violation.columns.join(', ')}` : violation.table;
  if (violation.kind !== 'foreign key') return `${violation.kind}: ${columns}`;
  // The referring table is not named: the caller may not be allowed to read it.
  if (violation.stillReferenced) return `foreign key: rows of another table refer to this ${violation.table} row`;
  return violation.referencedTable ? `foreign key: ${columns} → ${violation.referencedTable}` : `foreign key: ${columns}`;
}

/**
 * A refused write already explained: by the data layer (SQLite names no column of a failed
 * foreign key; the write engine finds which parent is missing inside its transaction), or as
 * the caller may hear it (the write engine leaves out what the caller's roles cannot read;
 * undefined: nothing can be named). Mapped to 422 / 4221 or 409 / 4091 like the driver error
 * it stands for (`driverError`, never itself a refusal).
 */
export class ConstraintRefusal extends Error {
  readonly driverError: unknown;

  constructor(
    readonly violation: ConstraintViolation | undefined,
    driverError: unknown,
  ) {
    super(`the database refused the change (${violation ? describeViolation(violation) : 'a constraint'})`);
    this.name = 'ConstraintRefusal';
    this.driverError = driverError instanceof ConstraintRefusal ? driverError.driverError : driverError;
  }
}

interface Named {
  table: string;
  columns: string[];
  referencedTable?: string;
}

interface TableFacts {
  name: string;
  columns: Set<string>;
  primaryKey: string[];
  foreignKeys: Array<{ columns: string[]; referencedTable: string }>;
}

/** The driver's facts about a constraint error: its code, and where drivers name them, table, column, constraint, message. */
interface DriverFacts {
  code?: string;
  errno?: number;
  message: string;
  detail: string;
  table?: string;
  column?: string;
  constraint?: string;
  /** The failed statement's text, as TypeORM's QueryFailedError keeps it. */
  query: string;
  parameters: unknown[];
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function driverFactsOf(error: unknown): DriverFacts {
  const e = (error ?? {}) as Record<string, unknown>;
  const inner = (e.driverError ?? e) as Record<string, unknown>;
  return {
    code: stringOr(inner.code) ?? stringOr(e.code),
    errno: typeof inner.errno === 'number' ? inner.errno : undefined,
    message: stringOr(inner.message) ?? stringOr(e.message) ?? '',
    detail: stringOr(inner.detail) ?? '',
    table: stringOr(inner.table),
    column: stringOr(inner.column),
    constraint: stringOr(inner.constraint),
    query: stringOr(e.query) ?? '',
    parameters: Array.isArray(e.parameters) ? (e.parameters as unknown[]) : [],
  };
}

const KIND_BY_CODE: Record<string, ConstraintViolation['kind']> = {
  ER_NO_REFERENCED_ROW_2: 'foreign key',
  ER_ROW_IS_REFERENCED_2: 'foreign key',
  ER_NO_REFERENCED_ROW: 'foreign key',
  ER_ROW_IS_REFERENCED: 'foreign key',
  ER_BAD_NULL_ERROR: 'not null',
  ER_DUP_ENTRY: 'unique',
  ER_CHECK_CONSTRAINT_VIOLATED: 'check',
  '23503': 'foreign key',
  '23502': 'not null',
  '23505': 'unique',
  '23514': 'check',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign key',
  SQLITE_CONSTRAINT_NOTNULL: 'not null',
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_CHECK: 'check',
};
const KIND_BY_ERRNO: Record<number, ConstraintViolation['kind']> = {
  1452: 'foreign key',
  1451: 'foreign key',
  1048: 'not null',
  1062: 'unique',
  4025: 'check',
  3819: 'check',
};

export function violationKindOf(error: unknown): ConstraintViolation['kind'] | undefined {
  const { code, errno } = driverFactsOf(error);
  return (code !== undefined ? KIND_BY_CODE[code] : undefined) ?? (errno !== undefined ? KIND_BY_ERRNO[errno] : undefined);
}

/** The names between backquotes or double quotes in a driver's list, e.g. "(`a`, `b`)". */
function quotedNames(list: string): string[] {
  return [...list.matchAll(/[`"]([^`"]+)[`"]/g)].map((m) => m[1]!);
}

/** The table a failed INSERT, UPDATE or DELETE wrote, and the columns it set (INSERT and UPDATE). */
export function statementTarget(query: string): { table: string; verb: 'insert' | 'update' | 'delete'; columns: string[] } | undefined {
  const insert = /^\s*INSERT\s+INTO\s+[`"]?([^`"\s(]+)[`"]?\s*\(([^)]*)\)/i.exec(query);
  if (insert) return { table: insert[1]!, verb: 'insert', columns: quotedNames(insert[2]!) };
  const update = /^\s*UPDATE\s+[`"]?([^`"\s]+)[`"]?\s+SET\s+(.*?)\s+WHERE\s/is.exec(query);
  if (update) return { table: update[1]!, verb: 'update', columns: [...update[2]!.matchAll(/[`"]([^`"]+)[`"]\s*=/g)].map((m) => m[1]!) };
  const remove = /^\s*DELETE\s+FROM\s+[`"]?([^`"\s]+)[`"]?/i.exec(query);
  if (remove) return { table: remove[1]!, verb: 'delete', columns: [] };
  const bare = /^\s*INSERT\s+INTO\s+[`"]?([^`"\s(]+)[`"]?/i.exec(query);
  return bare ? { table: bare[1]!, verb: 'insert', columns: [] } : undefined;
}

/**
 * Every table the entities know, with the names their constraints have (as TypeORM names them
 * in metadata and in migrations built from `Table` objects), to map a driver's report back to
 * columns.
 */
export class ConstraintCatalog {
  private readonly tables = new NameLookup<TableFacts>();
  private readonly byConstraint = new Map<string, Named & { kind: ConstraintViolation['kind'] }>();

  constructor(metadatas: readonly EntityMetadata[], naming: NamingStrategyInterface) {
    for (const m of metadatas) {
      if (m.tableType === 'view') continue;
      const table = m.tableName;
      const primaryKey = m.primaryColumns.map((c) => c.databaseName);
      const facts: TableFacts = { name: table, columns: new Set(m.columns.map((c) => c.databaseName)), primaryKey, foreignKeys: [] };
      this.tables.set(table, facts);
      if (primaryKey.length > 0) {
        this.remember(naming.primaryKeyName(table, primaryKey), 'unique', { table, columns: primaryKey });
        this.remember(`${table}_pkey`, 'unique', { table, columns: primaryKey });
      }
      for (const fk of m.foreignKeys) {
        const named = { table, columns: fk.columnNames, referencedTable: fk.referencedEntityMetadata.tableName };
        facts.foreignKeys.push({ columns: named.columns, referencedTable: named.referencedTable });
        this.remember(fk.name, 'foreign key', named);
        this.remember(
          naming.foreignKeyName(table, fk.columnNames, fk.referencedEntityMetadata.tableName, fk.referencedColumnNames),
          'foreign key',
          named,
        );
      }
      const uniques = [
        ...m.uniques.map((u) => ({ name: u.name, columns: u.columns.map((c) => c.databaseName) })),
        ...m.indices.filter((i) => i.isUnique).map((i) => ({ name: i.name, columns: i.columns.map((c) => c.databaseName) })),
      ];
      for (const unique of uniques) {
        this.remember(unique.name, 'unique', { table, columns: unique.columns });
        this.remember(naming.uniqueConstraintName(table, unique.columns), 'unique', { table, columns: unique.columns });
        this.remember(naming.indexName(table, unique.columns), 'unique', { table, columns: unique.columns });
      }
    }
  }

  private remember(name: string | undefined, kind: ConstraintViolation['kind'], named: Named): void {
    if (name && !this.byConstraint.has(name.toLowerCase())) this.byConstraint.set(name.toLowerCase(), { ...named, kind });
  }

  table(name: string | undefined): TableFacts | undefined {
    return name === undefined ? undefined : this.tables.get(name.split('.').pop() ?? name);
  }

  /** The columns of `table`, as metadata spells them, when every one is one of its columns. */
  private known(table: TableFacts | undefined, columns: string[]): string[] | undefined {
    if (!table || columns.length === 0) return undefined;
    const spelled = columns.map((c) => [...table.columns].find((known) => known.toLowerCase() === c.toLowerCase()));
    return spelled.every((c) => c !== undefined) ? spelled : undefined;
  }

  private constraintNamed(name: string | undefined, kind: ConstraintViolation['kind']): ConstraintViolation | undefined {
    const found = name === undefined ? undefined : this.byConstraint.get(name.toLowerCase());
    return found && found.kind === kind
      ? { kind, table: found.table, columns: found.columns, referencedTable: found.referencedTable }
      : undefined;
  }

  /** Which constraint the error reports, in metadata's names; undefined when it is no constraint error or cannot be placed. */
  violationOf(error: unknown): ConstraintViolation | undefined {
    if (error instanceof ConstraintRefusal) return error.violation;
    const kind = violationKindOf(error);
    if (!kind) return undefined;
    const facts = driverFactsOf(error);
    const target = statementTarget(facts.query);
    const written = this.table(target?.table);
    const found =
      this.constraintNamed(facts.constraint, kind) ??
      this.fromPostgres(kind, facts) ??
      this.fromMysql(kind, facts, written) ??
      this.fromSqlite(kind, facts);
    if (kind === 'foreign key' && written && (target?.verb === 'delete' || (found && found.table !== written.name))) {
      return { kind, table: written.name, columns: [], stillReferenced: true };
    }
    return found ?? (written ? { kind, table: written.name, columns: [] } : undefined);
  }

  /** PostgreSQL names the table and, for not null, the column; its detail names a key's columns ("Key (a, b)=(…)"), values not read. */
  private fromPostgres(kind: ConstraintViolation['kind'], facts: DriverFacts): ConstraintViolation | undefined {
    const table = this.table(facts.table);
    if (!table) return undefined;
    if (kind === 'not null') {
      const columns = this.known(table, facts.column ? [facts.column] : []);
      return columns ? { kind, table: table.name, columns } : undefined;
    }
    const key = /^Key \(([^)]*)\)=/.exec(facts.detail);
    const columns = key
      ? this.known(
          table,
          key[1]!.split(',').map((c) => c.trim().replace(/^"|"$/g, '')),
        )
      : undefined;
    if (!columns) return undefined;
    if (kind !== 'foreign key') return { kind, table: table.name, columns };
    // A key to a table no entity maps: its columns, without the table they refer to.
    const fk = table.foreignKeys.find((f) => f.columns.join() === columns.join());
    return fk ? { kind, table: table.name, columns, referencedTable: fk.referencedTable } : { kind, table: table.name, columns };
  }

  /** MySQL/MariaDB: a foreign key's message spells the constraint out; not null names the column; a duplicate names the key. */
  private fromMysql(
    kind: ConstraintViolation['kind'],
    facts: DriverFacts,
    written: TableFacts | undefined,
  ): ConstraintViolation | undefined {
    if (kind === 'foreign key') {
      const fk = /\(`[^`]*`\.`([^`]+)`, CONSTRAINT `([^`]+)` FOREIGN KEY \(([^)]*)\) REFERENCES `([^`]+)`/.exec(facts.message);
      if (!fk) return undefined;
      const byName = this.constraintNamed(fk[2], kind);
      if (byName) return byName;
      const table = this.table(fk[1]);
      const columns = this.known(table, quotedNames(fk[3]!));
      if (!table || !columns) return undefined;
      // A key to a table no entity maps: its columns, without the table they refer to.
      const referenced = this.table(fk[4]);
      return referenced ? { kind, table: table.name, columns, referencedTable: referenced.name } : { kind, table: table.name, columns };
    }
    if (kind === 'not null') {
      const column = /^Column '([^']+)' cannot be null/.exec(facts.message);
      const columns = column ? this.known(written, [column[1]!]) : undefined;
      return written && columns ? { kind, table: written.name, columns } : undefined;
    }
    if (kind === 'unique') {
      const key = /for key '(?:[^'.]+\.)?([^'.]+)'$/.exec(facts.message);
      if (!key) return undefined;
      if (key[1] === 'PRIMARY') return written ? { kind, table: written.name, columns: written.primaryKey } : undefined;
      return this.constraintNamed(key[1], kind) ?? (written ? this.constraintNamed(`${written.name}.${key[1]}`, kind) : undefined);
    }
    return undefined;
  }

  /**
   * SQLite names `table.column` pairs for not null and unique; a failed foreign key names
   * nothing, and is not guessed from the keys the entities know (the table may have others, to
   * tables no entity maps): the write engine names the one whose parent is missing, see
   * `ConstraintRefusal`; otherwise only the table is named.
   */
  private fromSqlite(kind: ConstraintViolation['kind'], facts: DriverFacts): ConstraintViolation | undefined {
    const pairs = /constraint failed: (.+)$/.exec(facts.message);
    if (pairs && (kind === 'not null' || kind === 'unique')) {
      const named = pairs[1]!.split(',').map((p) => p.trim().split('.'));
      const table = this.table(named[0]?.[0]);
      const columns = this.known(
        table,
        named.map((p) => p[1] ?? ''),
      );
      return table && columns ? { kind, table: table.name, columns } : undefined;
    }
    return undefined;
  }
}
