import type { Resource, ResourceRegistry } from '../data/resource-registry.js';
import type { Params } from '../data/row-store.js';
import type { Dialect } from '../database/dialect.js';
import { roleFilterSql, type ResourceAccess } from './resource-access.js';
import type { Grant } from './role-bank.js';

/** What a read selects besides the row to tell which columns each row shows, and how to tell it. */
export interface ReadVisibility {
  /** Expressions to select beside each row (their values are bound into `params` where they are compiled). */
  select: Array<{ alias: string; sql: string }>;
  /** The columns a row shows, given what `select` answered for it; undefined means every column. */
  readable: (extra: Record<string, unknown>) => ReadonlySet<string> | undefined;
}

/**
 * Which columns of each row a reader may see. When the caller's READ grants differ in columns and
 * some are row-filtered, the row decides: one flag per filtered grant is selected beside it (the
 * table aliased `alias`). Otherwise nothing is selected and every row shows the same columns.
 * Tables and every level of a custom resource read through this.
 */
export function readVisibility(
  resource: Resource,
  access: ResourceAccess,
  registry: ResourceRegistry,
  dialect: Dialect,
  params: Params,
  alias = 't',
): ReadVisibility {
  if (!access.columnsVaryByRow) {
    const readable = access.readable();
    return { select: [], readable: () => readable };
  }
  const grants = access.grantsFor('READ');
  const flagged: Array<{ grant: Grant; alias: string }> = [];
  const select = grants.flatMap((grant, i) => {
    if (!grant.filter) return [];
    const flag = `__grant_${i}`;
    flagged.push({ grant, alias: flag });
    return [
      {
        alias: flag,
        sql: `CASE WHEN ${access.grantPredicate(grant, roleFilterSql(resource, registry, dialect, params, alias))} THEN 1 ELSE 0 END`,
      },
    ];
  });
  return {
    select,
    readable: (extra) =>
      access.readableIn(grants.filter((g) => !g.filter || flagged.some((f) => f.grant === g && Number(extra[f.alias]) === 1))),
  };
}
