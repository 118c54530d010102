import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis } from './epoch-millis.transformer.js';

/** What a login attempt is counted against. */
export type LoginAttemptScope = 'account' | 'address';

/**
 * The login attempts of one account or one client address in the current window (see
 * LoginThrottle): the window opens with the first attempt after the previous one closed.
 */
@Entity({ name: 'tessera_login_attempts' })
export class LoginAttemptCounter {
  @PrimaryColumn({ type: 'varchar', length: 10 })
  scope!: LoginAttemptScope;

  @PrimaryColumn({ type: 'varchar', length: 200 })
  subject!: string;

  @Index('ix_tessera_login_attempts_window')
  @Column({ name: 'window_start', type: 'bigint', transformer: epochMillis })
  windowStart!: number;

  /** Failed logins in the window. */
  @Column({ type: 'integer' })
  failures!: number;

  /** Logins admitted whose password is being checked now (each may still fail): one per LoginLease naming this subject. */
  @Column({ type: 'integer' })
  pending!: number;
}
