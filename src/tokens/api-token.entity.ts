import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { GlobalValue, GlobalValues } from '../common/global-values.js';
import { epochMillis } from '../database/schema/epoch-millis.transformer.js';

/**
 * How a token came to be: a login of a built-in user at `@authentication`, a login through a
 * custom provider (`provider`: tied to no built-in user, whatever its user identifier), or
 * by hand through the admin API.
 */
export type TokenOrigin = 'login' | 'provider' | 'manual';

/**
 * An API auth token (spec §2.1). The key itself is never stored: only its SHA-256 hash,
 * by which it is looked up.
 */
@Entity({ name: 'tessera_api_tokens' })
export class ApiToken {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Index('uq_tessera_api_tokens_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash!: string;

  @Column({ type: 'varchar', length: 200 })
  label!: string;

  /** The login name for login tokens; optional free text for manual ones. */
  @Index('ix_tessera_api_tokens_user')
  @Column({ name: 'user_identifier', type: 'varchar', length: 100, nullable: true })
  userIdentifier!: string | null;

  @Column({ type: 'simple-json' })
  roles!: string[];

  @Column({ type: 'simple-json' })
  globals!: GlobalValues;

  /** The provider's extras at login (lastLoginTs, lastLoginIP, email, ...), repeated on re-validation. */
  @Column({ name: 'user_info', type: 'simple-json', nullable: true })
  userInfo!: Record<string, GlobalValue> | null;

  /** Epoch ms; null (manual tokens only) means the token never expires. */
  @Index('ix_tessera_api_tokens_expiration')
  @Column({ type: 'bigint', nullable: true, transformer: epochMillis })
  expiration!: number | null;

  @Column({ type: 'boolean' })
  disabled!: boolean;

  /** Epoch ms of the disabling; null while active (and for tokens that expired first). The purge goes by it. */
  @Index('ix_tessera_api_tokens_disabled_at')
  @Column({ name: 'disabled_at', type: 'bigint', nullable: true, transformer: epochMillis })
  disabledAt!: number | null;

  @Column({ type: 'varchar', length: 10 })
  origin!: TokenOrigin;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt!: number;

  /** Updated at most once a minute per token (see TokensService), so it is approximate. */
  @Column({ name: 'last_used_at', type: 'bigint', nullable: true, transformer: epochMillis })
  lastUsedAt!: number | null;
}
