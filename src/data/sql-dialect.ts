import type { Dialect } from '../database/dialect.js';

/** Identifier quoting for names that come from entity metadata (never from a request). */
export function quoteIdentifier(dialect: Dialect, name: string): string {
  return dialect === 'mysql' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}
