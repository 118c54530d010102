import type { ColumnPath } from '../../data/query/ast.js';
import type { ColumnResolver, ResolvedColumn } from '../../data/query/compile-context.js';

type Attributes = ReadonlyMap<string, { column: { name: string } }>;

/**
 * Filters and orders on a custom resource's level name its attributes (aliases) or, as in LAC, the
 * columns behind them: this resolver maps a name to its column and hands it to `inner`, which decides
 * what the caller may name (`CallerColumnResolver`) or the system may (`RegistryColumnResolver`, at
 * boot). An attribute name wins over a column of the same name (`name` aliasing column `title` while
 * another attribute shows column `name` means the first). Only the columns the level's attributes show
 * can be named, one part each (no `parent.column` paths): a column the level does not expose stays
 * unknown, so nothing hidden can be named. The compiler, its checks and its SQL stay the tables' own.
 */
export class AttributeColumnResolver implements ColumnResolver {
  private byColumn?: ReadonlyMap<string, string>;

  constructor(
    private readonly attributes: Attributes,
    private readonly inner: ColumnResolver,
  ) {}

  resolve(path: ColumnPath): ResolvedColumn | undefined {
    if (path.length !== 1) return undefined;
    const column = this.columnOf(path[0]!);
    return column === undefined ? undefined : this.inner.resolve([column]);
  }

  /** The column an attribute or an exposed column name stands for, or undefined. */
  columnOf(name: string): string | undefined {
    const attribute = this.attributes.get(name);
    if (attribute) return attribute.column.name;
    this.byColumn ??= new Map([...this.attributes.values()].map((a) => [a.column.name, a.column.name]));
    return this.byColumn.get(name);
  }
}
