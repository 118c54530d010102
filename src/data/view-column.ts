import { ViewColumn as TypeOrmViewColumn, type ColumnType } from 'typeorm';

/**
 * A view column as Tessera serves it: TypeORM's `@ViewColumn` carries only a name, but Tessera
 * holds every value to its column's kind (filters bind values by it, answers render by it), so a
 * view entity says each column's type as a table's `@Column` does. `primary` declares the view's
 * key (every column of it `primary: true`), when the project knows its rows are unique by those
 * columns: the view's rows then have an href, a checksum and a URL of their own.
 */
export interface ServedViewColumnOptions {
  /** The column's name in the view, when the property is named otherwise. */
  name?: string;
  type: ColumnType;
  length?: string | number;
  precision?: number;
  scale?: number;
  unsigned?: boolean;
  /** PostgreSQL: an array of `type`. */
  array?: boolean;
  /** ENUM and SET columns (MySQL/MariaDB): their values. */
  enum?: string[];
  nullable?: boolean;
  /** A column of the view's declared key. */
  primary?: boolean;
}

/**
 * `@ViewColumn` with the column's type (see `ServedViewColumnOptions`). TypeORM reads the same
 * fields from a view column's options as from a table column's (the decorator stores them
 * whole), so its metadata then has the type the registry, the codec and the schema check read.
 */
export function ViewColumn(options: ServedViewColumnOptions): PropertyDecorator {
  return TypeOrmViewColumn(options);
}
