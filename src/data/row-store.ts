import { comparedPlaceholder } from './query/column-values.js';
import { numberedParams, positionalParams, type ParameterList } from './query/compile-context.js';
import { keyOf, type KeyValues } from './primary-key.js';
import type { ParentRelation, Resource, ResourceColumn } from './resource-registry.js';
import { quoteIdentifier } from './sql-dialect.js';
import type { Dialect } from '../database/dialect.js';
import { ConstraintRefusal, violationKindOf } from '../database/errors/constraint-violations.js';
import { fromDatabase, toDatabase, type CanonicalRow, type CanonicalValue, type DriverValue } from './value-codec.js';

export type Params = ParameterList;

/** What RowStore needs of a connection: a `WriteSession` (in a transaction) or a `LoneRead`. */
export interface SqlRunner {
  query(sql: string, values?: unknown[], structuredResult?: boolean): Promise<unknown>;
}

/**
 * How a read locks the rows it returns until the transaction ends: `true` (or `'update'`) for
 * rows the transaction will update, `'delete'` for rows it will delete. PostgreSQL takes FOR NO
 * KEY UPDATE for an update, which does not conflict with the KEY SHARE lock a child insert's
 * foreign-key check takes on its parent (FOR UPDATE would: the insert and the parent's
 * aggregate update then deadlock); MySQL/MariaDB take FOR UPDATE; SQLite has one writer.
 */
export type RowLock = boolean | 'update' | 'delete';

export function lockClause(dialect: Dialect, lock: RowLock): string {
  if (!lock || dialect === 'sqlite') return '';
  return dialect === 'postgres' && lock !== 'delete' ? ' FOR NO KEY UPDATE' : ' FOR UPDATE';
}

/** Every statement on a resource selects all its columns: the list is built once per resource, dialect and alias. */
const selectLists = new WeakMap<Resource, Map<string, string>>();

/**
 * LIMIT is written as an integer literal, not bound: SQLite (3.47 and later) plans with a bound
 * LIMIT's value and so prepares the whole statement again every time it is bound, which cost a
 * key read about a tenth of its CPU time. The value is our own page size, checked here; OFFSET
 * stays bound (it does not trigger that, and a literal would make a new statement per page).
 */
export function limitLiteral(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`LIMIT must be a non-negative integer, not ${limit}`);
  return String(limit);
}

/** A fresh parameter list with the dialect's placeholders. */
export function paramsFor(dialect: Dialect): Params {
  return dialect === 'postgres' ? numberedParams() : positionalParams();
}

/**
 * Row-level SQL for one resource table, on one query runner (one transaction). Every
 * identifier comes from the registry, every value is a bound parameter.
 */
/** Keys bound in one statement of `findByKeys`: far below every database's parameter limit (SQLite's is 32766). */
const KEYS_PER_STATEMENT = 500;

export class RowStore {
  constructor(
    /** The connection its statements run on (a transaction's: what reads inside that transaction use too). */
    readonly runner: SqlRunner,
    readonly dialect: Dialect,
    /** See `insertReturnsRow`; without it an insert reads its row back by key. */
    private readonly insertReturns = dialect !== 'mysql',
  ) {}

  q(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  /** A value bound for comparison with the column (see `comparedPlaceholder`). */
  compared(column: ResourceColumn, value: CanonicalValue, params: Params): string {
    return comparedPlaceholder(column.kind, this.dialect, params.add(toDatabase(column, value, this.dialect)));
  }

  selectList(resource: Resource, alias = 't'): string {
    const lists = selectLists.get(resource) ?? new Map<string, string>();
    selectLists.set(resource, lists);
    const key = `${this.dialect} ${alias}`;
    let list = lists.get(key);
    if (list === undefined) {
      list = resource.columns.map((c) => `${this.q(alias)}.${this.q(c.name)} AS ${this.q(c.name)}`).join(', ');
      lists.set(key, list);
    }
    return list;
  }

  toRow(resource: Resource, raw: Record<string, unknown>): CanonicalRow {
    const row: CanonicalRow = {};
    for (const column of resource.columns) row[column.name] = fromDatabase(column, raw[column.name] as DriverValue | null | undefined, this.dialect);
    return row;
  }

  keyPredicate(resource: Resource, key: KeyValues, params: Params, alias?: string): string {
    return resource.primaryKey
      .map((column, i) => `${alias ? `${this.q(alias)}.` : ''}${this.q(column.name)} = ${this.compared(column, key[i] ?? null, params)}`)
      .join(' AND ');
  }

  /** Reads one row; `lock` takes a row lock until the transaction ends (MySQL, PostgreSQL; see `RowLock`). */
  async findByKey(resource: Resource, key: KeyValues, lock: RowLock): Promise<CanonicalRow | undefined> {
    const params = paramsFor(this.dialect);
    const sql = `SELECT ${this.selectList(resource)} FROM ${this.q(resource.tableName)} ${this.q('t')} WHERE ${this.keyPredicate(resource, key, params, 't')}${lockClause(this.dialect, lock)}`;
    const rows = (await this.runner.query(sql, params.values)) as Array<Record<string, unknown>>;
    return rows[0] ? this.toRow(resource, rows[0]) : undefined;
  }

  /** Reads the rows with these keys (those that exist), without a lock: one statement per `KEYS_PER_STATEMENT` keys. */
  async findByKeys(resource: Resource, keys: readonly KeyValues[]): Promise<CanonicalRow[]> {
    const found: CanonicalRow[] = [];
    for (let i = 0; i < keys.length; i += KEYS_PER_STATEMENT) {
      const params = paramsFor(this.dialect);
      const where = keys
        .slice(i, i + KEYS_PER_STATEMENT)
        .map((key) => `(${this.keyPredicate(resource, key, params, 't')})`)
        .join(' OR ');
      const sql = `SELECT ${this.selectList(resource)} FROM ${this.q(resource.tableName)} ${this.q('t')} WHERE ${where}`;
      const rows = (await this.runner.query(sql, params.values)) as Array<Record<string, unknown>>;
      found.push(...rows.map((raw) => this.toRow(resource, raw)));
    }
    return found;
  }

  /**
   * A page of rows; `where`, `orderBy` and `extra` are compiled SQL whose values are already
   * in `params`, in the order they appear here (extra, where, order). `extra` expressions come
   * back beside each row, by alias.
   */
  async page(
    resource: Resource,
    query: { where: string[]; orderBy: string[]; extra?: Array<{ alias: string; sql: string }> },
    params: Params,
    limit: number,
    offset: number,
  ): Promise<Array<{ row: CanonicalRow; extra: Record<string, unknown> }>> {
    const extra = query.extra ?? [];
    const select = [this.selectList(resource), ...extra.map((e) => `${e.sql} AS ${this.q(e.alias)}`)].join(', ');
    const sql = [
      `SELECT ${select} FROM ${this.q(resource.tableName)} ${this.q('t')}`,
      query.where.length > 0 ? `WHERE ${query.where.join(' AND ')}` : '',
      query.orderBy.length > 0 ? `ORDER BY ${query.orderBy.join(', ')}` : '',
      `LIMIT ${limitLiteral(limit)} OFFSET ${params.add(offset)}`,
    ].filter(Boolean).join(' ');
    const rows = (await this.runner.query(sql, params.values)) as Array<Record<string, unknown>>;
    return rows.map((raw) => ({ row: this.toRow(resource, raw), extra: Object.fromEntries(extra.map((e) => [e.alias, raw[e.alias]])) }));
  }

  /**
   * How many rows meet `where` (compiled SQL whose values are in `params`), counted up to `bound`: the count
   * reads at most that many rows, so a large table costs no more than a bounded scan. `bound` itself means
   * "that many or more".
   */
  async count(resource: Resource, where: string[], params: Params, bound: number): Promise<number> {
    const inner = [
      `SELECT 1 AS ${this.q('one')} FROM ${this.q(resource.tableName)} ${this.q('t')}`,
      where.length > 0 ? `WHERE ${where.join(' AND ')}` : '',
      `LIMIT ${limitLiteral(bound)}`,
    ]
      .filter(Boolean)
      .join(' ');
    const rows = (await this.runner.query(`SELECT COUNT(*) AS ${this.q('n')} FROM (${inner}) ${this.q('c')}`, params.values)) as Array<
      Record<string, unknown>
    >;
    // PostgreSQL answers a bigint count as text.
    return Number(rows[0]?.n ?? 0);
  }

  /** Evaluates SQL conditions on one row: for each, whether the row meets it; undefined when the row does not exist. */
  async test(resource: Resource, key: KeyValues, conditions: Array<(params: Params) => string>): Promise<boolean[] | undefined> {
    const params = paramsFor(this.dialect);
    const columns = conditions.map((condition, i) => `CASE WHEN ${condition(params)} THEN 1 ELSE 0 END AS ${this.q(`c${i}`)}`);
    const sql = `SELECT ${columns.length > 0 ? columns.join(', ') : '1'} FROM ${this.q(resource.tableName)} ${this.q('t')} WHERE ${this.keyPredicate(resource, key, params, 't')}`;
    const rows = (await this.runner.query(sql, params.values)) as Array<Record<string, unknown>>;
    if (!rows[0]) return undefined;
    return conditions.map((_, i) => Number(rows[0]![`c${i}`]) === 1);
  }

  /**
   * Evaluates SQL conditions that read no table row of their own (see `ValuesColumnResolver`):
   * for each, whether it holds.
   */
  async testValues(conditions: Array<(params: Params) => string>): Promise<boolean[]> {
    const params = paramsFor(this.dialect);
    const columns = conditions.map((condition, i) => `CASE WHEN ${condition(params)} THEN 1 ELSE 0 END AS ${this.q(`c${i}`)}`);
    const rows = (await this.runner.query(`SELECT ${columns.join(', ')}`, params.values)) as Array<Record<string, unknown>>;
    return conditions.map((_, i) => Number(rows[0]?.[`c${i}`]) === 1);
  }

  /** Children of a parent row through one relation, locked as `lock` says. */
  async findChildren(child: Resource, relation: ParentRelation, parentRow: CanonicalRow, lock: RowLock): Promise<CanonicalRow[]> {
    const params = paramsFor(this.dialect);
    const where = relation.columns
      .map((pair) => {
        const column = child.columnsByName.get(pair.child)!;
        return `${this.q('t')}.${this.q(pair.child)} = ${this.compared(column, parentRow[pair.parent] ?? null, params)}`;
      })
      .join(' AND ');
    const sql = `SELECT ${this.selectList(child)} FROM ${this.q(child.tableName)} ${this.q('t')} WHERE ${where}${lockClause(this.dialect, lock)}`;
    const rows = (await this.runner.query(sql, params.values)) as Array<Record<string, unknown>>;
    return rows.map((raw) => this.toRow(child, raw));
  }

  /** Locks the rows a compiled condition (values in `params`) selects, in primary-key order, and returns them. */
  async lockWhere(resource: Resource, where: string, params: Params, lock: RowLock): Promise<CanonicalRow[]> {
    const order = resource.primaryKey.map((c) => `${this.q('t')}.${this.q(c.name)}`).join(', ');
    const sql = `SELECT ${this.selectList(resource)} FROM ${this.q(resource.tableName)} ${this.q('t')} WHERE ${where} ORDER BY ${order}${lockClause(this.dialect, lock)}`;
    const rows = (await this.runner.query(sql, params.values)) as Array<Record<string, unknown>>;
    return rows.map((raw) => this.toRow(resource, raw));
  }

  /**
   * Inserts the given columns and returns the new row as stored (defaults and generated key
   * included). SQLite, PostgreSQL and MariaDB return it from the INSERT itself (RETURNING);
   * MySQL, which has no RETURNING, reads it back by its key.
   */
  async insert(resource: Resource, values: CanonicalRow): Promise<CanonicalRow> {
    const params = paramsFor(this.dialect);
    const columns = resource.columns.filter((c) => c.name in values);
    const names = columns.map((c) => this.q(c.name)).join(', ');
    const placeholders = columns.map((c) => params.add(toDatabase(c, values[c.name] ?? null, this.dialect))).join(', ');
    const head = columns.length > 0
      ? `INSERT INTO ${this.q(resource.tableName)} (${names}) VALUES (${placeholders})`
      : this.dialect === 'mysql' ? `INSERT INTO ${this.q(resource.tableName)} () VALUES ()` : `INSERT INTO ${this.q(resource.tableName)} DEFAULT VALUES`;
    if (this.insertReturns) {
      const returning = resource.columns.map((c) => this.q(c.name)).join(', ');
      const result = (await this.refusalExplained(resource, values, () =>
        this.runner.query(`${head} RETURNING ${returning}`, params.values, true),
      )) as { records?: Array<Record<string, unknown>> };
      const stored = result.records?.[0];
      if (!stored) throw new Error(`the INSERT into ${resource.name} returned no row`);
      return this.toRow(resource, stored);
    }
    const result = (await this.refusalExplained(resource, values, () => this.runner.query(head, params.values, true))) as {
      raw: { insertId?: unknown };
    };
    const generated = resource.primaryKey.find((c) => c.generated && !(c.name in values));
    const key = generated
      ? resource.primaryKey.map((c) => (c === generated ? fromDatabase(c, String(result.raw.insertId), this.dialect) : values[c.name] ?? null))
      : keyOf(resource, values);
    const stored = await this.findByKey(resource, key, false);
    if (!stored) throw new Error(`row of ${resource.name} vanished inside its own transaction`);
    return stored;
  }

  async update(resource: Resource, key: KeyValues, changes: CanonicalRow): Promise<void> {
    const names = Object.keys(changes);
    if (names.length === 0) return;
    const params = paramsFor(this.dialect);
    const sets = names
      .map((name) => {
        const column = resource.columnsByName.get(name)!;
        return `${this.q(name)} = ${params.add(toDatabase(column, changes[name] ?? null, this.dialect))}`;
      })
      .join(', ');
    await this.refusalExplained(resource, changes, () =>
      this.runner.query(`UPDATE ${this.q(resource.tableName)} SET ${sets} WHERE ${this.keyPredicate(resource, key, params)}`, params.values),
    );
  }

  async delete(resource: Resource, key: KeyValues): Promise<void> {
    const params = paramsFor(this.dialect);
    await this.runner.query(`DELETE FROM ${this.q(resource.tableName)} WHERE ${this.keyPredicate(resource, key, params)}`, params.values);
  }

  /**
   * SQLite says only "FOREIGN KEY constraint failed", not which key: when the statement sets
   * several foreign keys, the parents are looked up (in the same transaction, which the failed
   * statement left open) and the one that is missing is named (see `ConstraintRefusal`).
   * MySQL/MariaDB and PostgreSQL name the key themselves.
   */
  private async refusalExplained<T>(resource: Resource, values: CanonicalRow, statement: () => Promise<T>): Promise<T> {
    try {
      return await statement();
    } catch (error) {
      if (this.dialect !== 'sqlite' || violationKindOf(error) !== 'foreign key') throw error;
      const missing = await this.missingParent(resource, values);
      throw missing ? new ConstraintRefusal(missing, error) : error;
    }
  }

  private async missingParent(resource: Resource, values: CanonicalRow) {
    for (const relation of resource.parents) {
      const set = relation.columns.map((pair) => ({ pair, column: resource.columnsByName.get(pair.child), value: values[pair.child] }));
      if (set.some((s) => s.column === undefined || s.value === undefined || s.value === null)) continue;
      const params = paramsFor(this.dialect);
      const where = set.map((s) => `${this.q(s.pair.parent)} = ${this.compared(s.column!, s.value!, params)}`).join(' AND ');
      const rows = (await this.runner.query(`SELECT 1 AS found FROM ${this.q(relation.parent)} WHERE ${where} LIMIT 1`, params.values)) as unknown[];
      if (rows.length === 0) {
        return { kind: 'foreign key' as const, table: resource.tableName, columns: relation.columns.map((pair) => pair.child), referencedTable: relation.parent };
      }
    }
    return undefined;
  }
}
