import type { DataSource } from 'typeorm';

export type Dialect = 'sqlite' | 'mysql' | 'postgres';

export function dialectOf(dataSource: DataSource): Dialect {
  const type = dataSource.options.type;
  if (type === 'postgres') return 'postgres';
  if (type === 'mysql' || type === 'mariadb') return 'mysql';
  return 'sqlite';
}

/** Identifier quoting for names that come from entity metadata (never from a request). */
export function quoteIdentifier(dialect: Dialect, name: string): string {
  return dialect === 'mysql' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}
