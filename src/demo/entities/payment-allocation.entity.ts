import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import type { Payment } from './payment.entity.js';
import type { Purchaseorder } from './purchaseorder.entity.js';
import { decimalColumn } from './decimal-column.js';

/** The part of a payment allocated to one order: made by the `allocate` rule, summed back to both. */
@Entity({ name: 'payment_allocation' })
export class PaymentAllocation {
  @PrimaryGeneratedColumn({ type: 'integer' })
  allocation_id!: number;

  @Index()
  @Column({ type: 'integer' })
  payment_id!: number;

  @Index()
  @Column({ type: 'integer' })
  order_number!: number;

  @Column({ ...decimalColumn })
  amount!: DecimalString;

  @ManyToOne('Payment', (payment: Payment) => payment.allocations, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'payment_id' })
  payment?: Payment;

  @ManyToOne('Purchaseorder', { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_number' })
  purchaseorder?: Purchaseorder;
}
