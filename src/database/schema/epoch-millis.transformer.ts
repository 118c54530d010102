import type { ValueTransformer } from 'typeorm';

/**
 * Times are stored as epoch milliseconds in a `bigint` column: the one representation that
 * reads and compares the same on SQLite, MySQL/MariaDB and PostgreSQL (their datetime and
 * timestamp types differ in precision and time-zone handling). MySQL and PostgreSQL hand
 * bigints back as strings; this makes them numbers again.
 */
export const epochMillis: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null | undefined) => (value === null || value === undefined ? null : Number(value)),
};
