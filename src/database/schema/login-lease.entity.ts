import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis } from './epoch-millis.transformer.js';

/**
 * One login slot held while its password is checked (see LoginThrottle): it is counted in the
 * `pending` of both its counters (LoginAttemptCounter) for as long as this row exists. Whoever
 * deletes the row gives the slot back, exactly once: the login when it ends, its process when
 * it shuts down, or any instance once `expiresAt` has passed (its process died with it).
 */
@Entity({ name: 'tessera_login_leases' })
export class LoginLease {
  /** Random (a UUID), made by the process that takes the slot: no auto-increment to interleave on Galera. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** The account counter's subject. */
  @Column({ type: 'varchar', length: 200 })
  account!: string;

  /** The address counter's subject. */
  @Column({ type: 'varchar', length: 200 })
  address!: string;

  @Index('ix_tessera_login_leases_expiry')
  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMillis })
  expiresAt!: number;
}
