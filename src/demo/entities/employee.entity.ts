import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import { decimalColumn } from './decimal-column.js';

@Entity({ name: 'employee' })
// Named as the demo's migration named it: MySQL/MariaDB keep a unique as an index, which
// TypeORM would otherwise look for under another name (IDX_...).
@Unique('UQ_8faaff206ec2fcaaa886555f7bd', ['login'])
export class Employee {
  @PrimaryGeneratedColumn({ type: 'integer' })
  employee_id!: number;

  @Column({ type: 'varchar', length: 15 })
  login!: string;

  @Column({ type: 'varchar', length: 30, nullable: true })
  name!: string | null;

  /** Raised by the `giveRaise` function (src/demo/functions.ts). */
  @Column({ ...decimalColumn, nullable: true })
  salary!: DecimalString | null;
}
