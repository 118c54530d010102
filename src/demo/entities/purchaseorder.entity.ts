import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import type { Customer } from './customer.entity.js';
import type { Employee } from './employee.entity.js';
import type { Lineitem } from './lineitem.entity.js';
import { decimalColumn } from './decimal-column.js';

@Entity({ name: 'purchaseorder' })
export class Purchaseorder {
  @PrimaryGeneratedColumn({ type: 'integer' })
  order_number!: number;

  @Index()
  @Column({ type: 'varchar', length: 30 })
  customer_name!: string;

  @Index()
  @Column({ type: 'integer', nullable: true })
  salesrep_id!: number | null;

  @Column({ ...decimalColumn, default: 0 })
  amount_total!: DecimalString;

  @Column({ type: 'boolean', default: false })
  paid!: boolean;

  /** Σ of the payments allocated to the order. */
  @Column({ ...decimalColumn, default: 0 })
  amount_paid!: DecimalString;

  /** amount_total − amount_paid: what the customer's balance counts while the order is unpaid. */
  @Column({ ...decimalColumn, default: 0 })
  amount_owed!: DecimalString;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  notes!: string | null;

  @ManyToOne('Customer', (customer: Customer) => customer.purchaseorders, { nullable: false })
  @JoinColumn({ name: 'customer_name' })
  customer?: Customer;

  @ManyToOne('Employee', { nullable: true })
  @JoinColumn({ name: 'salesrep_id' })
  salesrep?: Employee;

  @OneToMany('Lineitem', (item: Lineitem) => item.purchaseorder)
  lineitems?: Lineitem[];
}
