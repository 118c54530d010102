/** The slice of better-sqlite3 the harness and the raw server use (no @types package is installed). */
declare module 'better-sqlite3' {
  namespace Database {
    interface RunResult {
      changes: number;
      lastInsertRowid: number | bigint;
    }
    interface Statement {
      readonly reader: boolean;
      run(...params: unknown[]): RunResult;
      get(...params: unknown[]): unknown;
      all(...params: unknown[]): unknown[];
    }
    interface Transaction<F extends (...args: never[]) => unknown> {
      (...args: Parameters<F>): ReturnType<F>;
      immediate(...args: Parameters<F>): ReturnType<F>;
    }
  }
  interface Database {
    prepare(sql: string): Database.Statement;
    pragma(sql: string): unknown;
    exec(sql: string): this;
    transaction<F extends (...args: never[]) => unknown>(fn: F): Database.Transaction<F>;
    close(): void;
  }
  const Database: new (filename: string, options?: Record<string, unknown>) => Database;
  export default Database;
}
