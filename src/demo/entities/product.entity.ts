import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import { decimalColumn } from './decimal-column.js';

@Entity({ name: 'product' })
export class Product {
  @PrimaryGeneratedColumn({ type: 'integer' })
  product_number!: number;

  @Column({ type: 'varchar', length: 50, unique: true })
  name!: string;

  @Column({ ...decimalColumn })
  price!: DecimalString;
}
