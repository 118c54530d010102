import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

import type { ColumnKind } from './query/sql-compiler.js';

export type { ColumnKind };

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
};

/** Maps an entity column's declared type to its API kind; unsupported types stop the boot. */
export function columnKindOf(column: ColumnMetadata): ColumnKind {
  const type = column.type;
  if (type === String) return 'string';
  if (type === Number) return column.isGenerated ? 'integer' : 'decimal';
  if (type === Boolean) return 'boolean';
  if (type === Date) return 'datetime';
  const kind = typeof type === 'string' ? BY_TYPE_NAME[type.toLowerCase()] : undefined;
  if (!kind) {
    throw new Error(
      `Column ${column.entityMetadata.name}.${column.propertyName} has type ${String(type)}, which Tessera does not serve; use varchar/text, int, decimal, boolean, date or datetime.`,
    );
  }
  return kind;
}
