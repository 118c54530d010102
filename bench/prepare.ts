import { generate, ruleViolations, type DataSpec } from './dataset.js';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { ruleViolationsInDatabase, seedDataSet } from './seed.js';
import { startTessera } from './servers.js';
import { openClient } from './sql-client.js';

export interface PreparedDatabase {
  scratch: ScratchDatabase;
  /** Order ids of the data set's sibling orders (scaling benchmark). */
  siblingOrderIds: number[];
  seedSeconds: number;
}

/**
 * A fresh database holding the benchmark data set: Tessera boots on it once (its own
 * migrations create the schema; its first-start seed adds the demo users and employees),
 * stops, and then the data set replaces the demo rows through the driver.
 */
export async function prepareDatabase(
  dbSpec: string,
  data: DataSpec,
  suffix: string,
  log: (line: string) => void,
): Promise<PreparedDatabase> {
  const scratch = await createScratchDatabase(dbSpec, suffix);
  try {
    const boot = await startTessera({ databaseUrl: scratch.url, adapter: 'fastify', label: `tessera-first-boot${suffix}` });
    await boot.stop();
    const generated = generate(data);
    const problems = ruleViolations(generated);
    if (problems.length > 0) throw new Error(`the generated data set breaks the demo rules: ${problems.slice(0, 5).join('; ')}`);
    const started = Date.now();
    const client = await openClient(scratch.url);
    try {
      const counts = await seedDataSet(client, generated);
      const seedSeconds = (Date.now() - started) / 1000;
      const broken = (await ruleViolationsInDatabase(client)).filter((v) => v.rows > 0);
      if (broken.length > 0)
        throw new Error(`seeded data breaks the demo rules: ${broken.map((b) => `${b.rule}: ${b.rows} rows`).join('; ')}`);
      log(
        `seeded ${scratch.version}${suffix} in ${seedSeconds.toFixed(1)} s: ${Object.entries(counts)
          .map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`)
          .join(', ')}; every demo rule holds`,
      );
      return { scratch, siblingOrderIds: generated.siblingOrderIds, seedSeconds };
    } finally {
      await client.close();
    }
  } catch (error) {
    await scratch.drop().catch(() => undefined);
    throw error;
  }
}
