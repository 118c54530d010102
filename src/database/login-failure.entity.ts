import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillis } from './epoch-millis.transformer.js';

/** What a failed login is counted against. */
export type LoginFailureScope = 'account' | 'address';

/** One failed login, kept for the throttle's window (see LoginThrottle). */
@Entity({ name: 'tessera_login_failures' })
export class LoginFailure {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 10 })
  scope!: LoginFailureScope;

  @Column({ type: 'varchar', length: 200 })
  subject!: string;

  @Column({ name: 'failed_at', type: 'bigint', transformer: epochMillis })
  failedAt!: number;
}
