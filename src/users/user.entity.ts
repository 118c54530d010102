import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { GlobalValues } from '../common/global-values.js';
import { epochMillis } from '../database/schema/epoch-millis.transformer.js';

/** A user of the built-in (default) authentication provider (spec §2.2). */
@Entity({ name: 'tessera_users' })
export class User {
  /** The login name. */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  login!: string;

  /** bcrypt hash; never leaves the service. */
  @Column({ name: 'password_hash', type: 'varchar', length: 100 })
  passwordHash!: string;

  @Column({ type: 'simple-json' })
  roles!: string[];

  @Column({ type: 'simple-json' })
  globals!: GlobalValues;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  /** Lifetime of this user's login tokens; null means the configured default. */
  @Column({ name: 'key_lifetime_seconds', type: 'integer', nullable: true })
  keyLifetimeSeconds!: number | null;

  /** An inactive user cannot log in, and their tokens stop working. */
  @Column({ type: 'boolean' })
  active!: boolean;

  @Column({ name: 'last_login_at', type: 'bigint', nullable: true, transformer: epochMillis })
  lastLoginAt!: number | null;

  @Column({ name: 'last_login_ip', type: 'varchar', length: 64, nullable: true })
  lastLoginIp!: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt!: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMillis })
  updatedAt!: number;
}
