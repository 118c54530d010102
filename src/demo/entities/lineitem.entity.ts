import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import type { Product } from './product.entity.js';
import type { Purchaseorder } from './purchaseorder.entity.js';
import { decimalColumn } from './decimal-column.js';

@Entity({ name: 'lineitem' })
export class Lineitem {
  @PrimaryGeneratedColumn({ type: 'integer' })
  lineitem_id!: number;

  @Index()
  @Column({ type: 'integer' })
  order_number!: number;

  @Index()
  @Column({ type: 'integer' })
  product_number!: number;

  @Column({ type: 'integer' })
  qty_ordered!: number;

  @Column({ ...decimalColumn, nullable: true })
  product_price!: DecimalString | null;

  @Column({ ...decimalColumn, nullable: true })
  amount!: DecimalString | null;

  @ManyToOne('Purchaseorder', (order: Purchaseorder) => order.lineitems, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_number' })
  purchaseorder?: Purchaseorder;

  @ManyToOne('Product', { nullable: false })
  @JoinColumn({ name: 'product_number' })
  product?: Product;
}
