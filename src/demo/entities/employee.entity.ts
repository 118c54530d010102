import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'employee' })
export class Employee {
  @PrimaryGeneratedColumn({ type: 'integer' })
  employee_id!: number;

  @Column({ type: 'varchar', length: 15, unique: true })
  login!: string;

  @Column({ type: 'varchar', length: 30, nullable: true })
  name!: string | null;
}
