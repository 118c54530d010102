import type { Resource } from '../../data/resource-registry.js';
import { limitLiteral, paramsFor, type Params } from '../../data/row-store.js';
import type { Dialect } from '../../database/dialect.js';
import type { SqlParameterDefinition } from './sql-resource-definition.js';
import type { ParameterValue } from './sql-parameters.js';
import { typedPlaceholder } from './sql-parameters.js';
import type { SqlPiece } from './sql-text.js';

/** A SQL resource as the boot checked it: its text in pieces, the tables its placeholders name, the columns it uses. */
export interface CompiledSqlResource {
  name: string;
  description?: string;
  pieces: readonly SqlPiece[];
  parameters: Readonly<Record<string, SqlParameterDefinition>>;
  /** Placeholders' tables, by the name written in the placeholder. */
  tables: ReadonlyMap<string, Resource>;
  /** Per table, the columns the SQL cannot run without (found at boot): a caller who may not read one is refused. */
  used: Map<Resource, Set<string>>;
  system: boolean;
}

/** What fills a statement: each placeholder's table SQL, each parameter's and global's value. */
export interface StatementValues {
  table(resource: Resource, alias: string, params: Params): string;
  parameter(name: string): ParameterValue;
  global(name: string): ParameterValue;
}

/**
 * The statement a SQL resource runs: its text with each placeholder a derived table (`(SELECT …) c`), each
 * parameter and global a bound value, in the order they appear, then the page: `LIMIT n OFFSET m`, on a line of
 * its own (after a trailing comment of the project's). `page.limit` is the page size plus one, to tell whether
 * another page follows.
 */
export function buildStatement(
  resource: CompiledSqlResource,
  dialect: Dialect,
  values: StatementValues,
  page: { limit: number; offset: number },
): { sql: string; values: unknown[] } {
  const params = paramsFor(dialect);
  let sql = '';
  for (const piece of resource.pieces) {
    switch (piece.kind) {
      case 'text':
        sql += piece.text;
        break;
      case 'table':
        sql += `${values.table(resource.tables.get(piece.table)!, piece.alias, params)} ${piece.alias}`;
        break;
      case 'parameter':
        sql += typedPlaceholder(dialect, params.add(values.parameter(piece.name)), resource.parameters[piece.name]?.type);
        break;
      case 'global': {
        const value = values.global(piece.name);
        const type =
          typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value === 'string' ? 'string' : undefined;
        sql += typedPlaceholder(dialect, params.add(value), type);
        break;
      }
    }
  }
  sql += `\nLIMIT ${limitLiteral(page.limit)} OFFSET ${params.add(page.offset)}`;
  return { sql, values: params.values };
}
