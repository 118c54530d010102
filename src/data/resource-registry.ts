import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';
import type { Database } from '../database/database.js';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { NameLookup } from '../database/name-lookup.js';
import { arrayItemKindOfTypeName, binaryBytesOf, columnKindOf, integerBitsOf, type ArrayItemKind, type ColumnKind } from './column-kind.js';
import { pathSegment } from './path-segment.js';

/** One column of a resource, as the API names and types it. The API name is the column's database name. */
export interface ResourceColumn {
  name: string;
  /** The name of the resource the column belongs to, for messages. */
  resource?: string;
  /** The entity property, for TypeORM calls. */
  propertyName: string;
  kind: ColumnKind;
  /** varchar length, when limited; binary: the most bytes it holds, when limited. */
  length?: number;
  /** decimal: total digits; datetime: digits of the fraction of a second. */
  precision?: number;
  scale?: number;
  /** integer: storage width in bits (8, 16, 24, 32 or 64). */
  integerBits?: number;
  /** integer declared unsigned (MySQL). */
  unsigned?: boolean;
  /** string: the only values it takes (an ENUM's, or a SET's members). */
  values?: readonly string[];
  /** string: a MySQL/MariaDB SET, whose value is a comma-separated list of `values`, in their order. */
  valueSet?: boolean;
  /** json: a PostgreSQL array, served as a JSON array of values of this kind. */
  items?: ArrayItemKind;
  nullable: boolean;
  /**
   * Filled by the database, never by a write: an auto-increment key, or a column the database
   * computes (a generated column; see `isComputed`).
   */
  generated: boolean;
  hasDefault: boolean;
  primary: boolean;
  unique: boolean;
}

/** A many-to-one link from this resource to a parent resource. */
export interface ParentRelation {
  /** The relation's property name on the child entity, e.g. `purchaseorder`. */
  name: string;
  parent: string;
  /** Pairs of (child column, parent column), in the parent's key order. */
  columns: Array<{ child: string; parent: string }>;
  onDelete?: string;
}

export interface ChildRelation {
  /** The relation's property name on the parent entity (one-to-many), or the child's resource name. */
  name: string;
  child: string;
  /** The matching parent relation on the child. */
  via: string;
}

export interface Resource {
  /** Plain name used in URLs and hrefs: the table name. */
  name: string;
  /** `name` as a URL path segment (percent-encoded once, at boot): what hrefs and links hold. */
  urlName: string;
  tableName: string;
  /**
   * `<prefix>:<table>` (`main:customer`), LAC's name for a table resource: URLs and the hrefs a
   * body sends back may use it as well as `name` (set by the registry).
   */
  prefixedName?: string;
  target: Function | string;
  columns: ResourceColumn[];
  columnsByName: ReadonlyMap<string, ResourceColumn>;
  /** Empty only for a view that declares no key (see `view`). */
  primaryKey: ResourceColumn[];
  /**
   * The other keys a row can be found by: each unique constraint's or unique index's columns
   * (database names, in their declared order). A partial index (`WHERE`) is not one.
   */
  uniqueKeys: ReadonlyArray<readonly string[]>;
  parents: ParentRelation[];
  children: ChildRelation[];
  /**
   * The database may store other values than a write sent (a trigger, `ON UPDATE CURRENT_TIMESTAMP`,
   * a generated column, JSON the database normalises): a write reads its rows back before answering, so that the
   * checksums it answers are the stored rows' (see `rewrittenTables`).
   */
  readBackAfterWrite: boolean;
  /**
   * A database view (a TypeORM `@ViewEntity`): read-only, GET only, with no relations. Its key is
   * the columns its entity declares `primary`, or none: rows of a view without a key have no
   * href, no checksum and no URL of their own (see `isKeyless`).
   */
  view: boolean;
}

/** A view without a declared key: its rows are read as a collection only. */
export function isKeyless(resource: Resource): boolean {
  return resource.primaryKey.length === 0;
}

/** How the registry reads the entities: their metadata, and the database's kind (SQLite keys differ). */
export type RegistryDatabase = Pick<Database, 'metadata'> & Partial<Pick<Database, 'dialect'>>;

/**
 * The project's resources, built once at boot from TypeORM entity metadata. It is the only
 * source of identifiers that reach SQL.
 */
export class ResourceRegistry {
  private readonly byName = new NameLookup<Resource>();
  readonly resources: readonly Resource[];

  /** `rewritten`: tables whose rows the database changes itself (triggers), by name as the database spells them. */
  constructor(database: RegistryDatabase, entities: Function[], readonly prefix: string, rewritten: ReadonlySet<string> = new Set()) {
    const metadatas = entities.map((entity) => database.metadata(entity));
    const tableOf = new Map(metadatas.map((m) => [m.target, m.tableName]));
    this.resources = metadatas.map((m) => buildResource(m, tableOf, database.dialect === 'sqlite', rewritten.has(m.tableName)));
    for (const resource of this.resources) {
      for (const child of this.resources) {
        for (const relation of child.parents) {
          if (relation.parent === resource.name) resource.children.push({ name: child.name, child: child.name, via: relation.name });
        }
      }
      resource.prefixedName = `${prefix}:${resource.tableName}`;
      this.byName.set(resource.name, resource);
      this.byName.set(resource.prefixedName, resource);
    }
  }

  /**
   * Finds a resource by plain or prefixed name, case-insensitively; undefined when unknown. Where
   * two tables' names differ only in case (`Customer`, `customer`), only the exact names find them.
   */
  find(name: string): Resource | undefined {
    return this.byName.get(name);
  }

  /** Whether `name` matches a resource's name ignoring case, found or not (a custom resource must not take it). */
  taken(name: string): boolean {
    return this.byName.hasFolded(name);
  }

  /** Like `find`, but an unknown name is 404 / 4040. */
  get(name: string): Resource {
    const resource = this.find(name);
    if (resource) return resource;
    const shown = name.slice(0, 100);
    throw new ApiError(
      ErrorCode.NOT_FOUND,
      this.byName.isAmbiguous(name)
        ? `No such resource: ${shown} (the names of several resources differ from it only in case: spell one exactly)`
        : `No such resource: ${shown}`,
    );
  }
}

/**
 * SQLite: a table's only key column, declared INTEGER, is its rowid (unless the table is WITHOUT
 * ROWID), which SQLite numbers when an insert leaves it out (an `INT` key is not one).
 */
function isSqliteRowid(metadata: EntityMetadata, column: ColumnMetadata): boolean {
  return column.isPrimary && metadata.primaryColumns.length === 1 && String(column.type).toLowerCase() === 'integer' && !metadata.withoutRowid;
}

function buildResource(metadata: EntityMetadata, tableOf: Map<Function | string, string>, sqlite: boolean, rewritten: boolean): Resource {
  const view = metadata.tableType === 'view';
  if (view && metadata.relations.length > 0) {
    throw new Error(
      `View entity ${metadata.name} declares relations (${metadata.relations.map((r) => r.propertyName).join(', ')}); Tessera serves views read-only, without relations: remove them.`,
    );
  }
  const toView = metadata.relations.find((r) => r.inverseEntityMetadata.tableType === 'view');
  if (toView) {
    throw new Error(
      `Entity ${metadata.name}'s relation ${toView.propertyName} leads to view entity ${toView.inverseEntityMetadata.name}; Tessera serves views read-only, without relations: remove it.`,
    );
  }
  const uniqueColumns = new Set(
    metadata.uniques.filter((u) => u.columns.length === 1).map((u) => u.columns[0]!.databaseName),
  );
  for (const index of metadata.indices) {
    if (index.isUnique && index.columns.length === 1) uniqueColumns.add(index.columns[0]!.databaseName);
  }
  const columns = metadata.columns
    .filter((c) => !c.isVirtual)
    .map((c): ResourceColumn => toResourceColumn(c, uniqueColumns, sqlite && isSqliteRowid(metadata, c), sqlite));
  const parents = metadata.manyToOneRelations.map((relation): ParentRelation => ({
    name: relation.propertyName,
    parent: tableOf.get(relation.inverseEntityMetadata.target) ?? relation.inverseEntityMetadata.tableName,
    columns: relation.joinColumns.map((jc) => ({ child: jc.databaseName, parent: jc.referencedColumn!.databaseName })),
    onDelete: relation.onDelete,
  }));
  const primaryKey = columns.filter((c) => c.primary);
  if (primaryKey.length === 0 && !view) throw new Error(`Entity ${metadata.name} has no primary key; every resource needs one.`);
  return {
    name: metadata.tableName,
    urlName: pathSegment(metadata.tableName),
    tableName: metadata.tableName,
    target: metadata.target,
    columns,
    columnsByName: new Map(columns.map((c) => [c.name, c])),
    primaryKey,
    uniqueKeys: uniqueKeysOf(metadata),
    parents,
    children: [],
    readBackAfterWrite:
      !view &&
      (rewritten ||
        columns.some((c) => c.kind === 'json') ||
        metadata.columns.some((c) => c.onUpdate !== undefined || isComputed(c)) ||
        // MySQL pads a binary(n) value with zero bytes to its length: the stored bytes are not the ones written.
        metadata.columns.some((c) => String(c.type).toLowerCase() === 'binary')),
    view,
  };
}

/** The unique constraints' and full unique indexes' column lists, each once. */
function uniqueKeysOf(metadata: EntityMetadata): string[][] {
  const keys = [
    ...metadata.uniques.map((u) => u.columns.map((c) => c.databaseName)),
    ...metadata.indices.filter((i) => i.isUnique && !i.where).map((i) => i.columns.map((c) => c.databaseName)),
  ].filter((columns) => columns.length > 0);
  const seen = new Set<string>();
  return keys.filter((columns) => {
    const id = [...columns].sort().join('\u0000');
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * A column the database computes: a generated column, declared with its `generatedType`, or as
 * the generator declares one, `insert: false, update: false` (TypeORM may neither insert nor
 * update it: the database fills it). Reads return it; writes cannot set it, and its table's rows
 * are read back after a write.
 */
function isComputed(column: ColumnMetadata): boolean {
  return column.generatedType !== undefined || (!column.isInsert && !column.isUpdate);
}

function toResourceColumn(c: ColumnMetadata, uniqueColumns: Set<string>, rowid: boolean, sqlite: boolean): ResourceColumn {
  const kind = columnKindOf(c);
  // binary: the most bytes it holds (its declared length, or its type's, as MySQL's blob).
  const length = kind === 'binary' ? binaryBytesOf(c, sqlite) : c.length ? Number(c.length) : undefined;
  const precision = c.precision ?? undefined;
  return {
    name: c.databaseName,
    resource: c.entityMetadata.tableName,
    propertyName: c.propertyName,
    kind,
    length: Number.isFinite(length) ? length : undefined,
    precision,
    // decimal(p) is decimal(p,0) on MySQL and PostgreSQL alike (the SQL standard's default scale).
    scale: c.scale ?? (precision !== undefined && /^(decimal|numeric)$/i.test(String(c.type)) ? 0 : undefined),
    integerBits: kind === 'integer' ? integerBitsOf(c) : undefined,
    unsigned: kind === 'integer' && c.unsigned ? true : undefined,
    values: kind === 'string' && c.enum ? c.enum.map(String) : undefined,
    valueSet: kind === 'string' && c.type === 'set' ? true : undefined,
    items: kind === 'json' && c.isArray ? arrayItemKindOfTypeName(String(c.type)) : undefined,
    nullable: c.isNullable,
    generated: c.isGenerated || isComputed(c),
    // Creation and update dates and versions are filled by TypeORM or the database too.
    hasDefault: c.default !== undefined || c.isCreateDate || c.isUpdateDate || c.isVersion || rowid,
    primary: c.isPrimary,
    unique: uniqueColumns.has(c.databaseName),
  };
}
