import type { ColumnOptions } from 'typeorm';

/** Money columns: decimal(19,4), exact on MySQL/MariaDB and PostgreSQL. Declare the property `DecimalString` (rules then see a `Decimal`). */
export const decimalColumn = { type: 'decimal', precision: 19, scale: 4 } as const satisfies ColumnOptions;
