import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { keyOf, type KeyValues } from '../data/primary-key.js';
import type { Resource, ResourceRegistry } from '../data/resource-registry.js';
import type { RowChange } from '../data/row-change.js';
import { RowStore, type Params } from '../data/row-store.js';
import type { CanonicalRow } from '../data/value-codec.js';
import { ValuesColumnResolver, type Unsettled } from '../data/values-column-resolver.js';
import type { ConstraintViolation } from '../database/errors/constraint-violations.js';
import type { Database } from '../database/database.js';
import type { ConstraintFailure } from '../logic/constraint-failure.js';
import type { RowPolicy } from '../logic/row-policy.js';
import { roleFilterSql, type ResourceAccess, type SqlContext } from './resource-access.js';
import type { Operation } from './role-definition.js';
import type { SummaryVisibility, VisibleEntry } from './summary-visibility.js';

/**
 * One caller's rights over the rows of one write (see `RowPolicy`): the roles' row filters of
 * `access` decide which rows the client may change, where it may put them, and what of the
 * summary and of a failed constraint's message it may see. A grant without a row filter admits
 * every row: nothing is asked of the database then. Beyond the engine's questions, the document
 * writer asks it what an object may compare and match (`unreadable`, `lookupConditions`,
 * `mayKnow`): every piece of security SQL a write runs is built here.
 */
export class CallerRowPolicy implements RowPolicy<VisibleEntry> {
  constructor(
    private readonly access: ResourceAccess,
    private readonly registry: ResourceRegistry,
    private readonly database: Database,
    private readonly visibility: SummaryVisibility,
  ) {}

  /**
   * An update or delete acts only on rows a granting role's filter admits. A row the caller
   * cannot see at all answers 404 (its existence is not revealed); one it can read but not
   * change answers 403. A missing row answers 404 too, from the write's own locked read.
   */
  async mayChange(store: RowStore, resource: Resource, key: KeyValues, verb: 'UPDATE' | 'DELETE'): Promise<void> {
    const access = this.access.to(resource);
    if (access.coversEveryRow(verb)) return;
    const result = await store.test(resource, key, [(p) => this.predicate(access, verb, p), (p) => this.predicate(access, 'READ', p)]);
    if (!result) throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${resource.name} with that key.`);
    const [permitted, visible] = result;
    if (permitted) return;
    if (visible) throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit ${verb} on this ${resource.name}.`);
    throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${resource.name} with that key.`);
  }

  async maySee(store: RowStore, resource: Resource, key: KeyValues): Promise<void> {
    const access = this.access.to(resource);
    if (access.coversEveryRow('READ')) return;
    const [visible] = (await store.test(resource, key, [(p) => this.predicate(access, 'READ', p)])) ?? [false];
    if (!visible) throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${resource.name} with that key.`);
  }

  /**
   * A row the caller inserts, or moves by an update, must land inside a granting role's
   * filter: judged on its final values just before its statement, so that a row outside
   * every filter is 403 whether or not its parent exists (the database's foreign key would
   * otherwise answer 422 for a missing parent only, telling which parents exist). A filter on
   * a column the database fills cannot be judged yet: `mayKeep` decides then.
   */
  async mayWrite(store: RowStore, resource: Resource, row: CanonicalRow, verb: 'INSERT' | 'UPDATE', unsettled?: Unsettled): Promise<void> {
    const access = this.access.to(resource);
    if (access.coversEveryRow(verb)) return;
    const dialect = this.database.dialect;
    const values = new ValuesColumnResolver(resource, this.registry, dialect, row, unsettled);
    const [inside] = await store.testValues([(params) => access.rowPredicate(verb, { columns: values, params, dialect }) ?? '(1=1)']);
    if (inside || values.incomplete) return;
    throw refusal(resource, verb);
  }

  /** The row as written (database defaults, and what later rules changed, included) must still be inside a granting filter. */
  async mayKeep(store: RowStore, resource: Resource, key: KeyValues, verb: 'INSERT' | 'UPDATE'): Promise<void> {
    const access = this.access.to(resource);
    if (access.coversEveryRow(verb)) return;
    const [inside] = (await store.test(resource, key, [(p) => this.predicate(access, verb, p)])) ?? [false];
    if (!inside) throw refusal(resource, verb);
  }

  /**
   * Which of `names` the caller may not read, so that an object of a write may not compare them
   * with stored values (nothing about a column it cannot read may be inferred). Where a column
   * shows only in the rows some row-filtered grants admit, it counts as readable in the row with
   * `key` only when one of them admits it (without a key, a LOOKUP matches such a column only in
   * those rows: see `lookupConditions`); in a row no READ grant admits but `change` does (one the
   * caller may only change), no column is readable. A row the caller may neither read nor change
   * is left to the write's own check, which answers 404 as for a missing one.
   */
  async unreadable(store: RowStore, resource: Resource, names: readonly string[], key?: KeyValues, change?: 'UPDATE'): Promise<string[]> {
    const access = this.access.to(resource);
    const readable = access.readable();
    const unreadable = readable === undefined ? [] : names.filter((name) => !readable.has(name));
    const byRow = key ? names.filter((name) => !unreadable.includes(name) && access.columnGrants(name, false)) : [];
    const rowDecides = key !== undefined && names.length > unreadable.length && !access.coversEveryRow('READ');
    if (byRow.length > 0 || rowDecides) {
      const operations: Operation[] = change ? ['READ', change] : ['READ'];
      const tested = await store.test(resource, key!, [
        ...operations.map((operation) => (params: Params) => this.predicate(access, operation, params)),
        ...byRow.map((name) => (params: Params) => access.grantsPredicate(access.columnGrants(name, false)!, this.sql(resource, params))),
      ]);
      const [visible, changeable] = tested ?? [];
      if (visible) unreadable.push(...byRow.filter((_, i) => !tested![operations.length + i]));
      else if (changeable) return [...names];
    }
    return unreadable;
  }

  /**
   * What a LOOKUP matching `names` adds to its WHERE (on alias `t`): the READ row filters, and for
   * a column some rows hide, the grants that show it, so that elsewhere a guess of it finds
   * nothing either way.
   */
  lookupConditions(resource: Resource, names: readonly string[], params: Params): string[] {
    const access = this.access.to(resource);
    const where: string[] = [];
    const rowFilter = access.rowPredicate('READ', this.sql(resource, params));
    if (rowFilter) where.push(rowFilter);
    for (const name of names) {
      const grants = access.columnGrants(name, false);
      if (grants) where.push(access.grantsPredicate(grants, this.sql(resource, params)));
    }
    return where;
  }

  /**
   * Whether the caller may know the row with this key exists: some READ or UPDATE grant admits it.
   * A MERGE_INSERT treats any other row as absent (an insert then, answered as for a new key), so
   * that updating it (404) does not tell it from a key that is free.
   */
  async mayKnow(store: RowStore, resource: Resource, key: KeyValues): Promise<boolean> {
    const access = this.access.to(resource);
    if (access.coversEveryRow('READ') || access.coversEveryRow('UPDATE')) return true;
    const admitted = await store.test(resource, key, [
      (p) => this.predicate(access, 'READ', p),
      (p) => this.predicate(access, 'UPDATE', p),
    ]);
    return admitted !== undefined && admitted.some(Boolean);
  }

  summary(store: RowStore, changes: readonly RowChange[]): Promise<VisibleEntry[]> {
    return this.visibility.of(store, changes, this.access);
  }

  shownViolation(violation: ConstraintViolation): ConstraintViolation | undefined {
    const readableResource = (table: string | undefined): Resource | undefined => {
      const resource = table === undefined ? undefined : this.registry.find(table);
      return resource && this.access.to(resource).grantsFor('READ').length > 0 ? resource : undefined;
    };
    const resource = readableResource(violation.table);
    if (!resource) return undefined;
    const access = this.access.to(resource);
    // Where readable columns vary row by row, no column is named (the row decides, and it may be none).
    const readable = access.columnsVaryByRow ? new Set<string>() : access.readable();
    const columnsShown = readable === undefined || violation.columns.every((column) => readable.has(column));
    return {
      ...violation,
      columns: columnsShown ? violation.columns : [],
      referencedTable: readableResource(violation.referencedTable) ? violation.referencedTable : undefined,
    };
  }

  async explain(failure: ConstraintFailure): Promise<string> {
    return failure.messageFor(await this.visibleColumns(failure.resource, failure.row, this.access.to(failure.resource)));
  }

  /**
   * The columns of a row a rule refused that the caller may read. A grant counts only if it
   * admits the row both as committed (the transaction is rolled back by now; a row not in the
   * table yet has no committed state) and with the values the rule saw: uncommitted values alone
   * (a balance the refused line item would have raised) must not open a row no committed state
   * shows. No READ grant admitting it: nothing is visible.
   */
  private async visibleColumns(resource: Resource, row: CanonicalRow, access: ResourceAccess): Promise<(column: string) => boolean> {
    const reads = access.grantsFor('READ');
    if (reads.length === 0) return () => false;
    let readable: ReadonlySet<string> | undefined;
    if (access.coversEveryRow('READ') && !access.columnsVaryByRow) {
      readable = access.readable();
    } else {
      const dialect = this.database.dialect;
      const filtered = reads.filter((g) => g.filter);
      const onValues = filtered.map(
        (g) => (params: Params) =>
          access.grantPredicate(g, { columns: new ValuesColumnResolver(resource, this.registry, dialect, row), params, dialect }),
      );
      const onCommitted = filtered.map(
        (g) => (params: Params) => access.grantPredicate(g, roleFilterSql(resource, this.registry, this.database.dialect, params)),
      );
      const [admits, committed] = await this.database.read(async (session) => {
        const store = new RowStore(session, dialect);
        return [await store.testValues(onValues), await store.test(resource, keyOf(resource, row), onCommitted)] as const;
      });
      const admitting = reads.filter((g) => {
        const i = filtered.indexOf(g);
        return i < 0 || (admits[i] && (!committed || committed[i]));
      });
      if (admitting.length === 0) return () => false;
      readable = access.readableIn(admitting);
    }
    return (column) => !readable || readable.has(column);
  }

  private predicate(access: ResourceAccess, operation: Operation, params: Params): string {
    return access.rowPredicate(operation, this.sql(access.resource, params)) ?? '(1=1)';
  }

  private sql(resource: Resource, params: Params): SqlContext {
    return roleFilterSql(resource, this.registry, this.database.dialect, params);
  }
}

function refusal(resource: Resource, verb: 'INSERT' | 'UPDATE'): ApiError {
  return new ApiError(
    ErrorCode.FORBIDDEN,
    verb === 'INSERT'
      ? `Your roles do not permit inserting this ${resource.name}.`
      : `Your roles do not permit this change: the ${resource.name} would leave the rows you may update.`,
  );
}
