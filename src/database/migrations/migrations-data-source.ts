import { DataSource, MigrationExecutor, type QueryRunner } from 'typeorm';
import { usesSqlite } from '../connection/sqlite-connection.js';

interface UndoOptions {
  transaction?: 'all' | 'none' | 'each';
  fake?: boolean;
}

/**
 * The data source of the TypeORM CLI (`ormconfig.ts`): TypeORM's own, except that
 * `migration:revert` on SQLite runs with foreign keys off, as `migration:run` does.
 *
 * TypeORM turns SQLite's foreign keys off for a revert only after it has begun the
 * transaction, where SQLite ignores the pragma. A `down()` that rebuilds a table others refer
 * to (SQLite changes a column that way: copy, drop, rename) then either fails with
 * `FOREIGN KEY constraint failed` or, through ON DELETE CASCADE, silently empties the
 * referring tables. Here the pragma comes first, and the revert commits only if no row is
 * left pointing at nothing (`PRAGMA foreign_key_check`).
 */
export class MigrationsDataSource extends DataSource {
  override async undoLastMigration(options: UndoOptions = {}): Promise<void> {
    if (!usesSqlite(this)) return super.undoLastMigration(options);
    const runner = this.createQueryRunner();
    const executor = new MigrationExecutor(this, runner);
    executor.transaction = options.transaction ?? 'all';
    executor.fake = options.fake ?? false;
    await runner.query('PRAGMA foreign_keys = OFF');
    try {
      if (executor.transaction === 'none') {
        await executor.undoLastMigration();
        return;
      }
      await runner.startTransaction();
      try {
        await executor.undoLastMigration();
        await refuseDanglingForeignKeys(runner);
        await runner.commitTransaction();
      } catch (error) {
        await runner.rollbackTransaction();
        throw error;
      }
    } finally {
      await runner.query('PRAGMA foreign_keys = ON');
      await runner.release();
    }
  }
}

async function refuseDanglingForeignKeys(runner: QueryRunner): Promise<void> {
  const dangling = (await runner.query('PRAGMA foreign_key_check')) as Array<{ table: string; parent: string }>;
  if (dangling.length === 0) return;
  const first = dangling[0]!;
  throw new Error(
    `The revert would leave ${dangling.length} row(s) of "${first.table}" (and maybe others) referring to no row of "${first.parent}"; nothing was changed.`,
  );
}
