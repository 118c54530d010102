import type { Api } from './support/api.js';
import { generateFromSql, suiteServing, type GeneratedProject } from './support/generated-project.js';
import { testTargets } from './support/test-app.js';

/**
 * Rows as stored (issue 26, item 6): a write answers every row as the database stored it, so
 * values the database computes itself are in the answer and every checksum it returns is the
 * one the next write must send. Triggers here, one per row written and one that changes another
 * table (Sakila's triggers and ON UPDATE CURRENT_TIMESTAMP are in generate-sakila.e2e-spec.ts):
 * a body of several rows, each answered as stored (read back one statement per table), then
 * written again with the returned checksums.
 */

type Kind = 'sqlite' | 'mysql' | 'postgres';
type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string } };
type Summary = { txsummary: Row[] };

/**
 * Triggers that keep `total` (a + b) and count updates in `touched`: the database's values, not
 * the client's. SQLite's run after the row is written (an UPDATE of the row itself), MariaDB's and
 * PostgreSQL's before.
 */
const TRIGGERS: Record<Kind, string[]> = {
  sqlite: [
    'CREATE TRIGGER gauge_total AFTER INSERT ON gauge BEGIN UPDATE gauge SET total = NEW.a + NEW.b WHERE id = NEW.id; END',
    `CREATE TRIGGER gauge_touch AFTER UPDATE OF a, b ON gauge BEGIN
       UPDATE gauge SET total = NEW.a + NEW.b, touched = OLD.touched + 1 WHERE id = NEW.id; END`,
  ],
  mysql: [
    'CREATE TRIGGER gauge_total BEFORE INSERT ON gauge FOR EACH ROW SET NEW.total = NEW.a + NEW.b',
    'CREATE TRIGGER gauge_touch BEFORE UPDATE ON gauge FOR EACH ROW SET NEW.total = NEW.a + NEW.b, NEW.touched = OLD.touched + 1',
  ],
  postgres: [
    `CREATE FUNCTION gauge_touch() RETURNS trigger AS $$ BEGIN
       NEW.total := NEW.a + NEW.b;
       IF TG_OP = 'UPDATE' THEN NEW.touched := OLD.touched + 1; END IF;
       RETURN NEW; END $$ LANGUAGE plpgsql`,
    'CREATE TRIGGER gauge_touch BEFORE INSERT OR UPDATE ON gauge FOR EACH ROW EXECUTE FUNCTION gauge_touch()',
  ],
};

function schemaSql(kind: Kind): string[] {
  return [
    `CREATE TABLE gauge (id INTEGER NOT NULL PRIMARY KEY, a INTEGER NOT NULL, b INTEGER NOT NULL, total INTEGER,
       touched INTEGER NOT NULL DEFAULT 0)`,
    ...TRIGGERS[kind],
    'INSERT INTO gauge (id, a, b) VALUES (1, 1, 10), (2, 2, 20), (3, 3, 30)',
  ];
}

const pathOf = (row: Row): string => new URL(row['@metadata'].href).pathname.replace(/^.*\/gauge\//, '/gauge/');
const values = ({ '@metadata': _metadata, ...rest }: Row): Record<string, unknown> => rest;

for (const target of testTargets().filter((t) => t.adapter === 'express')) {
  const kind = target.database;

  describe(`a write answers its rows as stored [${kind}]`, () => {
    let generated: GeneratedProject;
    let api: Api;
    beforeAll(async () => {
      generated = await generateFromSql(kind, schemaSql(kind), `stored-${kind}`, 'stored');
    });
    afterAll(async () => {
      await generated.source.drop();
    });
    suiteServing(
      target,
      () => generated,
      (_t, client) => {
        api = client;
      },
    );

    it('a PUT of several rows answers each with the values its triggers stored, and the returned checksums take the next PUT', async () => {
      const rows = (await api.get('/gauge?order=id').expect(200)).body as Row[];
      const body = rows.map((row) => ({ '@metadata': row['@metadata'], a: Number(row.a) + 100 }));
      const answered = ((await api.put('/gauge', body).expect(200)).body as Summary).txsummary;
      expect(answered.map((row) => [row.id, row.total, row.touched])).toEqual([
        [1, 111, 1],
        [2, 122, 1],
        [3, 133, 1],
      ]);
      for (const row of answered) {
        const [read] = (await api.get(pathOf(row)).expect(200)).body as Row[];
        expect(values(read!)).toEqual(values(row));
        expect(read!['@metadata'].checksum).toBe(row['@metadata'].checksum);
      }
      const again = answered.map((row) => ({ '@metadata': { href: row['@metadata'].href, checksum: row['@metadata'].checksum }, b: 0 }));
      const second = ((await api.put('/gauge', again).expect(200)).body as Summary).txsummary;
      expect(second.map((row) => [row.total, row.touched])).toEqual([
        [101, 2],
        [102, 2],
        [103, 2],
      ]);
    });

    it('a POST answers the value an insert trigger stored', async () => {
      const added = ((await api.post('/gauge', { id: 9, a: 4, b: 5 }).expect(201)).body as Summary).txsummary;
      expect(added[0]).toMatchObject({ id: 9, a: 4, b: 5, total: 9, touched: 0 });
    });
  });
}
