import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const TOKENS = 'tessera_api_tokens';

/**
 * Issue 13 item 12: expired and disabled tokens are purged after TOKEN_RETENTION_DAYS (see
 * TokenPurge), which needs to know when a token was disabled. Tokens disabled before this
 * migration count as disabled now, so they are kept a full retention period from here on.
 * The purge finds its rows by these two times, hence the indexes.
 */
export class TokenDisabledAt1763800012000 implements MigrationInterface {
  name = 'TokenDisabledAt1763800012000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(TOKENS, new TableColumn({ name: 'disabled_at', type: 'bigint', isNullable: true }));
    // Plain SQL: the entity of this table may already know more columns than this migration made.
    const [sql, parameters] = queryRunner.dataSource.driver.escapeQueryWithParameters(
      `UPDATE ${TOKENS} SET disabled_at = :now WHERE disabled = :yes`,
      { now: Date.now(), yes: true },
    );
    await queryRunner.query(sql, parameters);
    await queryRunner.createIndex(TOKENS, new TableIndex({ name: 'ix_tessera_api_tokens_disabled_at', columnNames: ['disabled_at'] }));
    await queryRunner.createIndex(TOKENS, new TableIndex({ name: 'ix_tessera_api_tokens_expiration', columnNames: ['expiration'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex(TOKENS, 'ix_tessera_api_tokens_expiration');
    await queryRunner.dropIndex(TOKENS, 'ix_tessera_api_tokens_disabled_at');
    await queryRunner.dropColumn(TOKENS, 'disabled_at');
  }
}
