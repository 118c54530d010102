import type { DataSource, ObjectLiteral } from 'typeorm';

/** A number TypeORM's SQLite driver would have written into the statement's text, on its way to being bound. */
class NumberToBind {
  constructor(readonly value: number) {}
}

const INT64_MIN = -(2 ** 63);
const INT64_END = 2 ** 63;

/**
 * The value SQLite reads when the number is written out as TypeORM writes it: an integer literal
 * is an INTEGER, anything else a REAL. better-sqlite3 binds every JS number as a REAL (so 5 into a
 * text column would be stored as '5.0'): an integer goes as a BigInt, bound as a 64-bit INTEGER.
 */
export function sqliteValueOf(value: number): number | bigint {
  return Number.isInteger(value) && value >= INT64_MIN && value < INT64_END ? BigInt(value) : value;
}

/**
 * Makes TypeORM's query builders bind numbers on SQLite. Its SQLite driver writes every number
 * parameter into the SQL text (`String(value)`), so the login throttle's windows, a token's last
 * use, a lease's expiry made a new statement for every value: a statement SQLite prepared again
 * each time (the throttle's UPDATE takes longer to prepare than to run), pushing the statements
 * that repeat out of TypeORM's cache of prepared ones, and an exception to "values are bound".
 * Booleans, dates, strings and arrays are bound already; what TypeORM does with them stays as it is.
 */
export function bindSqliteNumbers(dataSource: DataSource): void {
  const driver = dataSource.driver;
  const escape = driver.escapeQueryWithParameters.bind(driver);
  // TypeORM passes no parameters at all for some statements (and answers the SQL as it is).
  driver.escapeQueryWithParameters = (sql: string, parameters?: ObjectLiteral): [string, unknown[]] => {
    if (!parameters) return escape(sql, {});
    const marked: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(parameters)) {
      marked[name] = typeof value === 'number' ? new NumberToBind(value) : value;
    }
    const [text, values] = escape(sql, marked) as [string, unknown[]];
    return [text, values.map((value) => (value instanceof NumberToBind ? sqliteValueOf(value.value) : value))];
  };
}
