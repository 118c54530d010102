import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Facts about this installation (when it was installed, whether the demo was seeded). */
@Entity({ name: 'tessera_meta' })
export class TesseraMeta {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 1000 })
  value!: string;
}
