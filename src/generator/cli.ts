#!/usr/bin/env node
/**
 * `npm run generate -- ...`: writes the API project in `src/project/` from an existing
 * database, as an empty project, or back to the demo. See `USAGE`.
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDatabaseUrl } from '../config/database-url.js';
import { NAME, NAME_MESSAGE } from '../config/environment.schema.js';
import { PROJECT_ROOT } from '../config/project-root.js';
import { readSchema, UnreadableSchemaError } from '../database/schema/schema-reader.js';
import { connectFailureMessage } from '../database/errors/boot-errors.js';
import { GenerateError, generateProject, type ProjectSource } from './generate-project.js';
import { readEnvironment } from '../config/read-environment.js';
import { closingLines } from './next-steps.js';

/** How long the drivers wait for the server (their own defaults: mysql2 10 s). */
const CONNECT_TIMEOUT_MS = 10_000;

const USAGE =
  'usage: npm run generate -- (--from <DATABASE_URL> --name <project> | --empty --name <project> | --demo) [--force] [--out <folder>]';

interface Arguments {
  from?: string;
  name?: string;
  empty: boolean;
  demo: boolean;
  force: boolean;
  out: string;
}

function parse(argv: string[]): Arguments {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        from: { type: 'string' },
        name: { type: 'string' },
        empty: { type: 'boolean', default: false },
        demo: { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        out: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new GenerateError(`${(error as Error).message.split('\n')[0]!} (${USAGE})`);
  }
  const modes = [values.from !== undefined, values.empty, values.demo].filter(Boolean).length;
  if (modes !== 1) throw new GenerateError(`give exactly one of --from, --empty and --demo (${USAGE})`);
  if (values.demo && values.name !== undefined) throw new GenerateError(`--demo takes no --name: the demo is named demo (${USAGE})`);
  if (!values.demo) {
    if (values.name === undefined) throw new GenerateError(`--name is required with --from and --empty (${USAGE})`);
    if (!NAME.test(values.name) || values.name === '.' || values.name === '..')
      throw new GenerateError(`--name is a URL segment: ${NAME_MESSAGE} (got ${JSON.stringify(values.name)})`);
  }
  return {
    ...(values.from !== undefined ? { from: values.from } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
    empty: values.empty,
    demo: values.demo,
    force: values.force,
    out: resolve(values.out ?? resolve(PROJECT_ROOT, 'src', 'project')),
  };
}

async function sourceOf(args: Arguments): Promise<ProjectSource> {
  if (args.demo) return { kind: 'demo' };
  if (args.empty) return { kind: 'empty' };
  let target;
  try {
    target = parseDatabaseUrl(args.from!);
  } catch (error) {
    throw new GenerateError(`--from: ${(error as Error).message}`);
  }
  try {
    return { kind: 'database', schema: await readSchema(target) };
  } catch (error) {
    // Connected, but a query failed: not a connection problem (TypeORM's QueryFailedError, by name: the database layer owns TypeORM).
    if (target.kind === 'sqlite' || error instanceof UnreadableSchemaError || (error as Error).name === 'QueryFailedError')
      throw new GenerateError(`cannot read the schema of ${target.safeUrl}: ${(error as Error).message}`);
    throw new GenerateError(connectFailureMessage(target, error, CONNECT_TIMEOUT_MS));
  }
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const result = generateProject({
    source: await sourceOf(args),
    ...(args.name ? { name: args.name } : {}),
    out: args.out,
    force: args.force,
    root: PROJECT_ROOT,
  });
  process.stdout.write(`Wrote ${args.out}: ${result.files.join(', ')}\n`);
  if (result.views.length > 0) {
    process.stdout.write(
      `Views served read-only (GET only; without a key, so their rows have no href: README, "Views"): ${result.views.join(', ')}\n`,
    );
  }
  if (result.computed.length > 0) {
    process.stdout.write(
      `Computed columns served read-only (the database computes them: GET returns them, a write cannot set them): ${result.computed.join(', ')}\n`,
    );
  }
  if (result.skipped.length > 0) {
    process.stderr.write(
      `Left out (Tessera cannot serve them; the rest was generated):\n${result.skipped.map((s) => `  - ${s}`).join('\n')}\n`,
    );
  }
  const run = { demo: args.demo, ...(args.name ? { name: args.name } : {}), ...(args.from ? { from: args.from } : {}) };
  process.stdout.write(`${closingLines({ ...run, out: args.out, root: PROJECT_ROOT }, readEnvironment()).join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`generate: ${(error as Error).message}\n`);
  process.exit(1);
});
