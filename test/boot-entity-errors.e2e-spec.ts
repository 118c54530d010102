import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DatabaseBootError } from '../src/database/errors/boot-errors.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { demoProject } from '../src/demo/project.js';
import { startTestApp, testTargets } from './support/test-app.js';

/** A shop and its manager refer to each other, NOT NULL both ways: TypeORM refuses such a loop of relations. */
@Entity({ name: 'loop_shop' })
class LoopShop {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'integer' })
  manager_id!: number;

  @ManyToOne('LoopClerk', { nullable: false })
  @JoinColumn({ name: 'manager_id' })
  manager?: unknown;
}

@Entity({ name: 'loop_clerk' })
class LoopClerk {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'integer' })
  shop_id!: number;

  @ManyToOne(() => LoopShop, { nullable: false })
  @JoinColumn({ name: 'shop_id' })
  shop?: LoopShop;
}

/** `timestamp` is a type SQLite's driver does not know (`datetime` is). */
@Entity({ name: 'stamped' })
class Stamped {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'timestamp' })
  at!: Date;
}

/** No primary key: TypeORM's validator refuses it (any error of the metadata build is reported the same way). */
@Entity({ name: 'keyless' })
class Keyless {
  @Column({ type: 'integer' })
  n!: number;
}

const projectWith = (entities: Function[]): ProjectDefinition => ({ ...demoProject, name: 'broken', entities, migrations: [], rules: [] });

/** What a connection or file problem says: an entity error must never read like one. */
const CONNECTION_WORDING =
  /Cannot connect|Cannot reach|Cannot open the SQLite database|readable and writable|does not exist on|Access denied/;

async function bootError(target: ReturnType<typeof testTargets>[number], entities: Function[]): Promise<DatabaseBootError> {
  const error: unknown = await startTestApp(target, { project: projectWith(entities) }).then(
    async (t) => {
      await t.close();
      throw new Error('booted');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatabaseBootError);
  return error as DatabaseBootError;
}

for (const target of testTargets().filter((t) => t.adapter === 'express')) {
  describe(`a boot stopped by the project's entities names them, not the connection [${target.database}]`, () => {
    it('a loop of NOT NULL relations: the entities of the loop, and the fix', async () => {
      const { message } = await bootError(target, [LoopShop, LoopClerk]);
      expect(message).not.toMatch(CONNECTION_WORDING);
      expect(message).toMatch(/^The project's entities cannot be used \(TypeORM refused them before connecting to the database\): /);
      expect(message).toContain('the relations LoopShop.manager → LoopClerk, LoopClerk.shop → LoopShop form a loop of NOT NULL');
      expect(message).toMatch(/Fix: give one @ManyToOne of the loop \{ nullable: true \}/);
    });

    it("any other refusal of the metadata build: TypeORM's words, naming the entity, and the fix", async () => {
      const { message } = await bootError(target, [Keyless]);
      expect(message).not.toMatch(CONNECTION_WORDING);
      expect(message).toContain('Keyless');
      expect(message).toMatch(/Fix: correct the entity it names \(src\/project\/entities\/\), or regenerate the project/);
    });

    if (target.database === 'sqlite') {
      it('a column type the driver does not know: the entity, the column and the fix', async () => {
        const { message } = await bootError(target, [Stamped]);
        expect(message).not.toMatch(CONNECTION_WORDING);
        expect(message).toContain('Data type "timestamp" in "Stamped.at" is not supported by "better-sqlite3" database');
        expect(message).toMatch(/Fix: declare the column with a type the better-sqlite3 driver supports/);
      });
    }
  });
}
