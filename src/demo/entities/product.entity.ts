import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import { decimalColumn } from './decimal-column.js';

@Entity({ name: 'product' })
// Named as the demo's migration named it: MySQL/MariaDB keep a unique as an index, which
// TypeORM would otherwise look for under another name (IDX_...).
@Unique('UQ_22cc43e9a74d7498546e9a63e77', ['name'])
export class Product {
  @PrimaryGeneratedColumn({ type: 'integer' })
  product_number!: number;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  @Column({ ...decimalColumn })
  price!: DecimalString;
}
