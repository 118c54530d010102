import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillis } from '../database/schema/epoch-millis.transformer.js';

/** One change made through the admin API: who, what, when. Never holds a password or a key. */
@Entity({ name: 'tessera_admin_audit' })
export class AdminAuditEntry {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  /** The admin account that made the change. */
  @Column({ type: 'varchar', length: 100 })
  username!: string;

  /** e.g. `user.create`, `token.disable`. */
  @Column({ type: 'varchar', length: 50 })
  action!: string;

  /** What was changed, e.g. `user:demo`, `token:12`. */
  @Column({ type: 'varchar', length: 200 })
  target!: string;

  /** JSON text: the changed fields, as sent (never a password or a key). */
  @Column({ type: 'text', nullable: true })
  detail!: string | null;

  @Index('ix_tessera_admin_audit_at')
  @Column({ type: 'bigint', transformer: epochMillis })
  at!: number;
}
