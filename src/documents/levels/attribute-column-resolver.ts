import type { ColumnPath } from '../../data/query/ast.js';
import type { ColumnResolver, ResolvedColumn } from '../../data/query/compile-context.js';

/**
 * Filters and orders on a custom resource's level name its attributes (aliases): this resolver
 * maps an attribute name to its column and hands it to `inner`, which decides what the caller may
 * name (`CallerColumnResolver`) or the system may (`RegistryColumnResolver`, at boot). Only the
 * level's attributes can be named, one part each (no `parent.column` paths): the compiler, its
 * checks and its SQL stay the tables' own.
 */
export class AttributeColumnResolver implements ColumnResolver {
  constructor(
    private readonly attributes: ReadonlyMap<string, { column: { name: string } }>,
    private readonly inner: ColumnResolver,
  ) {}

  resolve(path: ColumnPath): ResolvedColumn | undefined {
    if (path.length !== 1) return undefined;
    const attribute = this.attributes.get(path[0]!);
    return attribute ? this.inner.resolve([attribute.column.name]) : undefined;
  }
}
