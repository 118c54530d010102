import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillis } from '../database/schema/epoch-millis.transformer.js';

/** A token of the admin API, kept apart from API tokens so neither opens the other's endpoints. */
@Entity({ name: 'tessera_admin_tokens' })
export class AdminToken {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Index('uq_tessera_admin_tokens_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash!: string;

  @Column({ type: 'varchar', length: 100 })
  username!: string;

  @Column({ type: 'bigint', transformer: epochMillis })
  expiration!: number;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt!: number;
}
