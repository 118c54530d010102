import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config.js';
import { openDatabase } from '../src/database/connection/open-database.js';
import { demoProject } from '../src/demo/project.js';
import { schemaOf } from '../src/schema.js';
import { ApiToken } from '../src/tokens/api-token.entity.js';
import { createScratchDatabase, type ScratchDatabase } from './support/test-databases.js';

/**
 * TypeORM's SQLite driver wrote every number parameter of a query builder into the statement's text: a token's
 * last use, the login throttle's windows and a lease's expiry made a new statement for each value, prepared again
 * every time. On the data source the service opens they are bound, and stored as the literals were.
 */
describe('numbers in TypeORM query builders on SQLite', () => {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    scratch = await createScratchDatabase('sqlite');
    const config = loadConfig({ DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' });
    dataSource = await openDatabase(config.database, schemaOf(demoProject));
    await dataSource.query('CREATE TABLE probe (label VARCHAR(20) PRIMARY KEY, i BIGINT, t VARCHAR(40), r REAL, n NUMERIC(12, 2))');
  });
  afterAll(async () => {
    await dataSource.destroy();
    await scratch.drop();
  });

  const lastUseUpdate = (at: number, id: number) =>
    dataSource
      .createQueryBuilder()
      .update(ApiToken)
      .set({ lastUsedAt: at })
      .where('id = :id', { id })
      .andWhere('(last_used_at IS NULL OR last_used_at < :stale)', { stale: at - 60_000 })
      .getQueryAndParameters();

  it('are bound, so one statement text serves every value', () => {
    const [first, firstValues] = lastUseUpdate(1_796_662_885_107, 2);
    const [second, secondValues] = lastUseUpdate(1_796_662_999_999, 7);
    expect(first).not.toMatch(/\d{4}/);
    expect(first).not.toMatch(/= 2\b/);
    expect(second).toBe(first);
    expect(firstValues).toEqual([1_796_662_885_107n, 2n, 1_796_662_825_107n]);
    expect(secondValues).toEqual([1_796_662_999_999n, 7n, 1_796_662_939_999n]);
  });

  it('are stored and compared as the literals TypeORM wrote were', async () => {
    const samples: Array<[string, number]> = [
      ['small', 5],
      ['negative', -42],
      ['fraction', 2.5],
      ['negative zero', -0],
      ['past int64', 1e21],
    ];
    for (const [label, value] of samples) {
      await dataSource
        .createQueryBuilder()
        .insert()
        .into('probe', ['label', 'i', 't', 'r', 'n'])
        .values({ label, i: value, t: value, r: value, n: value })
        .execute();
      const literal = String(value);
      await dataSource.query(`INSERT INTO probe (label, i, t, r, n) VALUES (?, ${literal}, ${literal}, ${literal}, ${literal})`, [
        `${label} as text`,
      ]);
    }
    const stored = await dataSource.query<Array<Record<string, unknown>>>(
      'SELECT label, i, typeof(i) AS ti, t, typeof(t) AS tt, r, typeof(r) AS tr, n, typeof(n) AS tn FROM probe ORDER BY label',
    );
    const byLabel = new Map(stored.map(({ label, ...row }) => [label, row]));
    for (const [label, value] of samples) {
      expect({ label, row: byLabel.get(label) }).toEqual({ label, row: byLabel.get(`${label} as text`) });
      // Compared as the literal is: the bound value finds the row.
      const found = await dataSource
        .createQueryBuilder()
        .select('label')
        .from('probe', 'p')
        .where('p.i = :value AND p.label = :label', { value, label })
        .getRawMany();
      expect(found).toEqual([{ label }]);
    }
    // 5 stays '5' in a text column (a number bound as a REAL would be stored as '5.0').
    expect(byLabel.get('small')).toMatchObject({ t: '5', tt: 'text', i: 5, ti: 'integer' });
    // Past 2^53 the literal was not the number: String(2 ** 60) is 1152921504606847000, 24 more. Bound, it is exact.
    await dataSource
      .createQueryBuilder()
      .insert()
      .into('probe', ['label', 't'])
      .values({ label: 'past 2^53', t: 2 ** 60 })
      .execute();
    const [{ t }] = await dataSource.query<[{ t: string }]>("SELECT t FROM probe WHERE label = 'past 2^53'");
    expect(t).toBe((2n ** 60n).toString());
  });
});
