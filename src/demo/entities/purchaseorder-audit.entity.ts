import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import { decimalColumn } from './decimal-column.js';

@Entity({ name: 'purchaseorder_audit' })
export class PurchaseorderAudit {
  @PrimaryGeneratedColumn({ type: 'integer' })
  audit_number!: number;

  @Column({ type: 'integer', nullable: true })
  order_number!: number | null;

  @Column({ ...decimalColumn, nullable: true })
  amount_total!: DecimalString | null;

  @Column({ type: 'boolean', nullable: true })
  paid!: boolean | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  notes!: string | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  customer_name!: string | null;

  @Column({ type: Date, precision: 3, nullable: true })
  audit_time!: Date | null;
}
