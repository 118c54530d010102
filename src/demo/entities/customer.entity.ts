import { Column, Entity, Index, OneToMany, PrimaryColumn } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import type { Purchaseorder } from './purchaseorder.entity.js';
import { decimalColumn } from './decimal-column.js';

@Entity({ name: 'customer' })
export class Customer {
  @PrimaryColumn({ type: 'varchar', length: 30 })
  name!: string;

  @Index('ix_customer_balance')
  @Column({ ...decimalColumn, default: 0 })
  balance!: DecimalString;

  @Column({ ...decimalColumn })
  credit_limit!: DecimalString;

  @OneToMany('Purchaseorder', (order: Purchaseorder) => order.customer)
  purchaseorders?: Purchaseorder[];
}
