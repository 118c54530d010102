import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

/**
 * The API kinds of column value: how a value is read, written, compared and checksummed. `json`
 * holds any JSON value (json and jsonb columns, PostgreSQL arrays as JSON arrays); filters and
 * sorts cannot compare it. `binary` holds bytes (blob, bytea, varbinary...), served in base64 as LAC
 * does; filters and sorts cannot compare it either.
 */
export type ColumnKind = 'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'json' | 'binary';

/** The kinds a PostgreSQL array's elements may have: it is served as a JSON array of them. */
export type ArrayItemKind = 'string' | 'integer' | 'boolean';

const BY_TYPE_NAME: Record<string, ColumnKind> = {
  varchar: 'string', 'character varying': 'string', char: 'string', character: 'string', nvarchar: 'string',
  nchar: 'string', text: 'string', mediumtext: 'string', longtext: 'string', tinytext: 'string', uuid: 'string',
  int: 'integer', integer: 'integer', smallint: 'integer', tinyint: 'integer', mediumint: 'integer',
  bigint: 'integer', int2: 'integer', int4: 'integer', int8: 'integer',
  decimal: 'decimal', numeric: 'decimal', float: 'decimal', double: 'decimal', real: 'decimal',
  'double precision': 'decimal',
  boolean: 'boolean', bool: 'boolean',
  date: 'date',
  datetime: 'datetime', timestamp: 'datetime', 'timestamp without time zone': 'datetime',
  'timestamp with time zone': 'datetime', timestamptz: 'datetime',
  // MySQL/MariaDB: YEAR is a number; ENUM and SET are text held to their values (see ResourceColumn.values).
  year: 'integer', enum: 'string', set: 'string', citext: 'string',
  json: 'json', jsonb: 'json',
  blob: 'binary', tinyblob: 'binary', mediumblob: 'binary', longblob: 'binary', bytea: 'binary', binary: 'binary',
  varbinary: 'binary',
};

/**
 * The most bytes a binary type holds where the type says so without a declared length (MySQL's
 * blobs; PostgreSQL's bytea holds up to 1 GB, which the body limit keeps far away). `binary(n)` and
 * `varbinary(n)` declare theirs.
 */
const BINARY_BYTES: Record<string, number> = { tinyblob: 255, blob: 65_535, mediumblob: 16_777_215, longblob: 4_294_967_295 };

/** The most bytes a binary column holds, when its type or declared length limits it (SQLite's blob: no limit). */
export function binaryBytesOf(column: ColumnMetadata, sqlite: boolean): number | undefined {
  const declared = column.length ? Number(column.length) : NaN;
  if (Number.isFinite(declared) && declared > 0) return declared;
  return sqlite || typeof column.type !== 'string' ? undefined : BINARY_BYTES[column.type.toLowerCase()];
}

/** The API kind of a database type name (`varchar`, `numeric`, `timestamp with time zone`...), if Tessera serves it. */
export function columnKindOfTypeName(typeName: string): ColumnKind | undefined {
  const name = typeName.toLowerCase();
  return Object.hasOwn(BY_TYPE_NAME, name) ? BY_TYPE_NAME[name] : undefined;
}

/** Bits of each integer type, as MySQL and PostgreSQL store it (SQLite stores any width; Tessera holds it to the declared one). */
const INTEGER_BITS: Record<string, number> = {
  tinyint: 8, smallint: 16, int2: 16, mediumint: 24, int: 32, integer: 32, int4: 32, bigint: 64, int8: 64, year: 16,
};

/** The kind of an array's elements, when Tessera serves arrays of that type. */
export function arrayItemKindOfTypeName(typeName: string): ArrayItemKind | undefined {
  const kind = columnKindOfTypeName(typeName);
  return kind === 'string' || kind === 'integer' || kind === 'boolean' ? kind : undefined;
}

/** Maps an entity column's declared type to its API kind; unsupported types stop the boot. */
export function columnKindOf(column: ColumnMetadata): ColumnKind {
  const type = column.type;
  if (column.isArray) {
    if (typeof type === 'string' && arrayItemKindOfTypeName(type)) return 'json';
    throw new Error(
      `Column ${column.entityMetadata.name}.${column.propertyName} is an array of ${String(type)}, which Tessera does not serve; arrays of text, integers or booleans are served as JSON arrays.`,
    );
  }
  if (type === String) return 'string';
  if (type === Number) return column.isGenerated ? 'integer' : 'decimal';
  if (type === Boolean) return 'boolean';
  if (type === Date) return 'datetime';
  if ((type as unknown) === Buffer) return 'binary';
  const kind = typeof type === 'string' ? BY_TYPE_NAME[type.toLowerCase()] : undefined;
  if (!kind) {
    throw new Error(
      `Column ${column.entityMetadata.name}.${column.propertyName} has type ${String(type)}, which Tessera does not serve; use varchar/text, int, decimal, boolean, date, datetime, json or a binary type (blob, bytea, varbinary).`,
    );
  }
  return kind;
}

/** The storage width of an integer column in bits; a generated `Number` key is an `integer` (32 bits) on every database. */
export function integerBitsOf(column: ColumnMetadata): number | undefined {
  if (column.type === Number) return column.isGenerated ? 32 : undefined;
  return typeof column.type === 'string' ? INTEGER_BITS[column.type.toLowerCase()] : undefined;
}
