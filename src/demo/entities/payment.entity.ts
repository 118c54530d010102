import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import type { Customer } from './customer.entity.js';
import type { PaymentAllocation } from './payment-allocation.entity.js';
import { decimalColumn } from './decimal-column.js';

/** A customer's payment, allocated to their unpaid orders, oldest first (the `allocate` rule in rules.ts). */
@Entity({ name: 'payment' })
export class Payment {
  @PrimaryGeneratedColumn({ type: 'integer' })
  payment_id!: number;

  @Index()
  @Column({ type: 'varchar', length: 30 })
  customer_name!: string;

  @Column({ ...decimalColumn })
  amount!: DecimalString;

  @Column({ ...decimalColumn, default: 0 })
  amount_allocated!: DecimalString;

  @Column({ ...decimalColumn, default: 0 })
  amount_unallocated!: DecimalString;

  @ManyToOne('Customer', { nullable: false })
  @JoinColumn({ name: 'customer_name' })
  customer?: Customer;

  @OneToMany('PaymentAllocation', (allocation: PaymentAllocation) => allocation.payment)
  allocations?: PaymentAllocation[];
}
