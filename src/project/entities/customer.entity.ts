import { Column, Entity, OneToMany, PrimaryColumn } from 'typeorm';
import type { Purchaseorder } from './purchaseorder.entity.js';
import { decimalColumn } from './decimal-column.js';

@Entity({ name: 'customer' })
export class Customer {
  @PrimaryColumn({ type: 'varchar', length: 30 })
  name!: string;

  @Column({ ...decimalColumn, default: 0 })
  balance!: string;

  @Column({ ...decimalColumn })
  credit_limit!: string;

  @OneToMany('Purchaseorder', (order: Purchaseorder) => order.customer)
  purchaseorders?: Purchaseorder[];
}
