import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AdminRole } from '../admin-api/admin-principal.js';
import { epochMillis } from '../database/schema/epoch-millis.transformer.js';

/** An operator of the admin API. Not an API user: API logins never see this table (spec §1). */
@Entity({ name: 'tessera_admin_accounts' })
export class AdminAccount {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  username!: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 100 })
  passwordHash!: string;

  /** `admin` (everything) or `auditor` (read-only); enforced by RolesGuard on every admin endpoint. */
  @Column({ type: 'varchar', length: 20, default: 'admin' })
  role!: AdminRole;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt!: number;
}
