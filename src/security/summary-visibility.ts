import type { RowChange } from '../data/row-change.js';
import type { Grant } from './role-bank.js';
import { roleFilterSql, type ResourceAccess } from './resource-access.js';
import { keyOf, rowIdentity } from '../data/primary-key.js';
import type { Resource, ResourceRegistry } from '../data/resource-registry.js';
import type { Dialect } from '../database/dialect.js';
import { paramsFor, type RowStore } from '../data/row-store.js';
import { ValuesColumnResolver } from '../data/values-column-resolver.js';

/** A txsummary row as its caller may see it: `readable` undefined means every column. */
export interface VisibleEntry extends RowChange {
  readable?: ReadonlySet<string>;
}

/** Rows per statement: keeps every database well under its bound-parameter limit. */
const CHUNK = 200;

/**
 * Which rows of a write's summary the caller sees, and with which columns: exactly what a GET
 * of each row right after the commit would show. Rules run with the system's rights and touch
 * rows (a customer's balance behind a line item) that the caller's row filters may exclude, or
 * show with fewer columns. Asked inside the transaction, after the commit rules, so it judges
 * the values being committed; a deleted row is judged on the values it had.
 *
 * Free when the caller's READ grants cover every row with the same columns (no query); else one
 * query per touched resource (per 200 rows) for the rows that remain, and one for deleted rows.
 */
export class SummaryVisibility {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly dialect: Dialect,
  ) {}

  async of(store: RowStore, entries: readonly RowChange[], access: ResourceAccess): Promise<VisibleEntry[]> {
    const byResource = new Map<Resource, RowChange[]>();
    for (const entry of entries) {
      const list = byResource.get(entry.resource);
      if (list) list.push(entry);
      else byResource.set(entry.resource, [entry]);
    }
    const shown = new Map<RowChange, ReadonlySet<string> | undefined>();
    for (const [resource, list] of byResource) {
      const mine = access.to(resource);
      if (!mine.can('READ')) continue;
      if (mine.coversEveryRow('READ') && !mine.columnsVaryByRow) {
        const readable = mine.readable();
        for (const entry of list) shown.set(entry, readable);
        continue;
      }
      const grants = mine.grantsFor('READ');
      const filtered = grants.filter((g) => g.filter);
      const show = (entry: RowChange, admits: readonly boolean[]): void => {
        const admitting = grants.filter((g) => !g.filter || admits[filtered.indexOf(g)]);
        if (admitting.length > 0) shown.set(entry, mine.readableIn(admitting));
      };
      const live = list.filter((e) => e.verb !== 'DELETE');
      const gone = list.filter((e) => e.verb === 'DELETE');
      for (let i = 0; i < live.length; i += CHUNK) await this.judgeStored(store, resource, mine, filtered, live.slice(i, i + CHUNK), show);
      for (let i = 0; i < gone.length; i += CHUNK) await this.judgeValues(store, resource, mine, filtered, gone.slice(i, i + CHUNK), show);
    }
    return entries.flatMap((e) => (shown.has(e) ? [{ ...e, readable: shown.get(e) }] : []));
  }

  /** Rows still in the table: their filters as the table holds them now (parent paths included). */
  private async judgeStored(
    store: RowStore,
    resource: Resource,
    access: ResourceAccess,
    filtered: readonly Grant[],
    entries: readonly RowChange[],
    show: (entry: RowChange, admits: readonly boolean[]) => void,
  ): Promise<void> {
    const params = paramsFor(this.dialect);
    const sql = roleFilterSql(resource, this.registry, this.dialect, params);
    const extra = filtered.map((grant, i) => ({
      alias: `__grant_${i}`,
      sql: `CASE WHEN ${access.grantPredicate(grant, sql)} THEN 1 ELSE 0 END`,
    }));
    const keys = entries.map((e) => `(${store.keyPredicate(resource, keyOf(resource, e.row), params, 't')})`);
    const found = await store.page(resource, { where: [`(${keys.join(' OR ')})`], orderBy: [], extra }, params, entries.length, 0);
    const flags = new Map(
      found.map((f) => [rowIdentity(resource, keyOf(resource, f.row)), extra.map((e) => Number(f.extra[e.alias]) === 1)]),
    );
    for (const entry of entries) {
      const admits = flags.get(rowIdentity(resource, keyOf(resource, entry.row)));
      if (admits) show(entry, admits);
    }
  }

  /** Deleted rows: their filters on the values they had (a parent as the transaction leaves it). */
  private async judgeValues(
    store: RowStore,
    resource: Resource,
    access: ResourceAccess,
    filtered: readonly Grant[],
    entries: readonly RowChange[],
    show: (entry: RowChange, admits: readonly boolean[]) => void,
  ): Promise<void> {
    if (filtered.length === 0) {
      for (const entry of entries) show(entry, []);
      return;
    }
    const conditions = entries.flatMap((entry) =>
      filtered.map(
        (grant) => (params: ReturnType<typeof paramsFor>) =>
          access.grantPredicate(grant, {
            columns: new ValuesColumnResolver(resource, this.registry, this.dialect, entry.row),
            params,
            dialect: this.dialect,
          }),
      ),
    );
    const answers = await store.testValues(conditions);
    entries.forEach((entry, i) => show(entry, answers.slice(i * filtered.length, (i + 1) * filtered.length)));
  }
}
