import { arrayItemKindOfTypeName, columnKindOfTypeName, type ColumnKind } from '../data/column-kind.js';
import type { SchemaColumn, SchemaSnapshot } from '../database/schema/schema-reader.js';

/** The type a generated entity declares for a column, and the API kind Tessera serves it as. */
export interface EntityColumnType {
  type: string;
  length?: string;
  kind: ColumnKind;
}

/** The type names TypeORM's SQLite driver takes (others stop the boot: `timestamp`, `char`...). */
const SQLITE_DRIVER_TYPES = new Set([
  'int',
  'integer',
  'tinyint',
  'smallint',
  'mediumint',
  'bigint',
  'unsigned big int',
  'int2',
  'int8',
  'character',
  'varchar',
  'varying character',
  'nchar',
  'native character',
  'nvarchar',
  'text',
  'clob',
  'real',
  'double',
  'double precision',
  'float',
  'numeric',
  'decimal',
  'boolean',
  'date',
  'datetime',
  'json',
  'jsonb',
  'blob',
]);

/** Character types of a fixed or limited length, and the name TypeORM's SQLite driver knows each by. */
const SQLITE_CHARACTER_TYPES: Record<string, string> = {
  char: 'character',
  character: 'character',
  nchar: 'nchar',
  'native character': 'native character',
  varchar: 'varchar',
  'varying character': 'varying character',
  nvarchar: 'nvarchar',
};

/**
 * SQLite takes any type name and stores by the name's affinity (sqlite.org/datatype3.html, 3.1):
 * a name holding INT is an integer; CHAR, CLOB or TEXT text; BLOB (or none) bytes; REAL, FLOA or
 * DOUB a double; anything else numeric. A name TypeORM's driver knows is kept; `timestamp` is
 * its `datetime`; `char(20)` its `character` of length 20; any other name is declared by its
 * affinity (`blob sub_type text` is text). Bytes (BLOB affinity) are `blob`; a column declared
 * without a type is not served.
 */
function sqliteColumnType(column: SchemaColumn): EntityColumnType | undefined {
  const declared = column.type.toLowerCase().trim();
  if (declared === 'timestamp') return { type: 'datetime', kind: 'datetime' };
  const known = SQLITE_DRIVER_TYPES.has(declared) ? columnKindOfTypeName(declared) : undefined;
  if (known) return { type: declared, ...(column.length !== undefined ? { length: column.length } : {}), kind: known };
  const sized = /^([a-z]+(?: [a-z]+)?)\s*\(\s*(\d+)\s*\)$/.exec(declared);
  const character = sized ? SQLITE_CHARACTER_TYPES[sized[1]!] : undefined;
  if (character) return { type: character, length: sized![2]!, kind: 'string' };
  if (declared.includes('int')) return { type: 'integer', kind: 'integer' };
  if (/char|clob|text/.test(declared)) return { type: 'text', kind: 'string' };
  if (declared === '') return undefined;
  if (declared.includes('blob')) return { type: 'blob', kind: 'binary' };
  if (/real|floa|doub/.test(declared)) return { type: 'real', kind: 'decimal' };
  return { type: 'numeric', kind: 'decimal' };
}

/**
 * How a generated entity declares a column of a database of `kind`, or undefined when Tessera
 * cannot serve its type: geometry, PostgreSQL's tsvector and enums, arrays of anything
 * but text, integers and booleans. A PostgreSQL array is served as a JSON array.
 */
export function entityColumnType(kind: SchemaSnapshot['kind'], column: SchemaColumn): EntityColumnType | undefined {
  if (column.array) return arrayItemKindOfTypeName(column.type) ? { type: column.type, kind: 'json' } : undefined;
  if (kind === 'sqlite') return sqliteColumnType(column);
  // PostgreSQL compares an enum only with its own type: text filters (like) would fail on it.
  if (kind === 'postgres' && column.enumName !== undefined) return undefined;
  const served = columnKindOfTypeName(column.type);
  return served ? { type: column.type, ...(column.length !== undefined ? { length: column.length } : {}), kind: served } : undefined;
}
