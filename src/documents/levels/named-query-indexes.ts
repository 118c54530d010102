import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ColumnPath, FilterNode } from '../../data/query/ast.js';
import { Database } from '../../database/database.js';
import type { Dialect } from '../../database/dialect.js';
import { LOGGER } from '../../observability/logger.js';
import { CustomResourceRegistry, type CustomResource } from './custom-resource-registry.js';

/** A column the custom resources' named filters and orders read, and which of them read it. */
export interface NamedQueryColumn {
  table: string;
  column: string;
  /** The table's entity, whose live indexes say whether the column leads one. */
  entity: Function | string;
  /** e.g. `Customers userfilter balanceAtLeast`, `Customers userorder richestFirst`. */
  readers: string[];
  /** Whether a named order sorts by it (on PostgreSQL its index must then keep nulls first, see `indexLeads`). */
  ordered: boolean;
}

/**
 * The columns each named filter tests and each named order sorts by first (of custom resources,
 * and of tables, whose level is named after the table) (a later term only
 * breaks ties: an index on it alone does not spare reading the table), as `table.column` of the
 * root level, in the order the definitions name them.
 */
export function namedQueryColumns(resources: readonly CustomResource[]): NamedQueryColumn[] {
  const found = new Map<string, NamedQueryColumn>();
  for (const { name: resource, root, userFilters, userOrders } of resources) {
    const add = (path: ColumnPath, reader: string, ordered = false): void => {
      // Named filters and orders name the root level's attributes, one part each (checked when the registry was built).
      const column = path.length === 1 ? root.attributeByName.get(path[0]!)?.column.name : undefined;
      if (column === undefined) return;
      const key = `${root.table.tableName}.${column}`;
      const entry = found.get(key) ?? { table: root.table.tableName, column, entity: root.table.target, readers: [], ordered: false };
      if (!entry.readers.includes(reader)) entry.readers.push(reader);
      entry.ordered ||= ordered;
      found.set(key, entry);
    };
    for (const filter of userFilters.values())
      for (const path of columnsOf(filter.tree)) add(path, `${resource} userfilter ${filter.name}`);
    for (const [name, terms] of userOrders) if (terms[0]) add(terms[0].column, `${resource} userorder ${name}`, true);
  }
  return [...found.values()];
}

function columnsOf(node: FilterNode): ColumnPath[] {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.operands.flatMap(columnsOf);
    case 'not':
      return columnsOf(node.operand);
    case 'compare':
      return [node.left, node.right].flatMap((operand) => (operand.kind === 'column' ? [operand.path] : []));
    default:
      return [node.subject.path];
  }
}

/** The boot's one line naming the columns no index starts with, each with the named filters and orders that read it. */
export function unindexedColumnsNote(unindexed: readonly NamedQueryColumn[], dialect: Dialect): string {
  const list = unindexed.map((c) => `${c.table}.${c.column} (${c.readers.join(', ')})`).join('; ');
  const nullsFirst =
    dialect === 'postgres' && unindexed.some((c) => c.ordered)
      ? ' On PostgreSQL an index serves an order only when it keeps nulls where the order does: built (column NULLS FIRST) for a column that may be NULL, in the default order for a NOT NULL one.'
      : '';
  return (
    `Named filters and orders read columns no index starts with, so each such read scans the whole table: ${list}. ` +
    `Add an index in a migration (and @Index on the entity).${nullsFirst}`
  );
}

/**
 * At boot, once the migrations have run: warns, in one line, about the columns the custom
 * resources' named filters and orders read that no index of the live database starts with
 * (see `indexLeads`). Says nothing when every such column leads an index. Advice only: it never
 * stops the boot.
 */
@Injectable()
export class NamedQueryIndexes implements OnApplicationBootstrap {
  constructor(
    private readonly registry: CustomResourceRegistry,
    private readonly database: Database,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const columns = namedQueryColumns([...this.registry.resources, ...this.registry.tableQueries]);
    if (columns.length === 0) return;
    try {
      const leads = await this.database.indexLeads([...new Set(columns.map((c) => c.entity))]);
      const unindexed = columns.filter((c) => leads.get(c.table)?.(c.column, c.ordered) === false);
      if (unindexed.length > 0)
        this.logger.warn(
          { columns: unindexed.map((c) => `${c.table}.${c.column}`) },
          unindexedColumnsNote(unindexed, this.database.dialect),
        );
    } catch (error) {
      this.logger.warn({ err: error }, "could not read the indexes of the named filters' and orders' tables");
    }
  }
}
