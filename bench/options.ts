import { startWords, type StartWords } from './start-words.js';
import type { WorkloadId } from './workloads.js';

export type AdapterName = 'express' | 'fastify';

export interface Options {
  /** "sqlite" or server URLs; each gets scratch databases of its own. */
  databases: string[];
  quick: boolean;
  adapters: AdapterName[];
  workloads: WorkloadId[];
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
  storm: boolean;
  stormSeconds: number;
  scaling: boolean;
  scaleCustomers: number;
  scaleSiblings: number;
  scaleSeconds: number;
  scaleRounds: number;
  /** Run the Tessera servers under `node --cpu-prof`. */
  profile: boolean;
  /** Another build's dist/src/main.js, run as an extra contender ("other/<adapter>") to compare two builds A/B. */
  compareBuild?: string;
  /** Environment words and Node.js flags for the other contender instead of the start script's (A/B of a start setting; alone, on this build). */
  compareFlags?: StartWords;
  /** Measure nothing: write RESULTS.md again from the saved full runs (after a change to the report's format). */
  rewriteResults: boolean;
  /** Write bench/RESULTS.md: by default only a full run with every workload, adapter and part does. */
  writeResults: boolean;
}

export const USAGE = `npm run bench -- [--quick] [--db sqlite|mysql://user@host:3306[/name]|postgres://user@host:5432[/name]]...
  [--adapter express|fastify]... [--workloads W0,W1,...] [--duration s] [--rounds n] [--connections n]
  [--no-storm] [--no-scaling] [--scale-customers n] [--profile] [--compare-build other/dist/src/main.js]
  [--compare-flags "[NAME=value ...] --node-flag=value ..."]
  [--write-results | --no-write-results] [--rewrite-results]
RESULTS.md for all three databases in one run: npm run bench -- --db sqlite --db mysql://root@127.0.0.1:3306 --db postgres://root@127.0.0.1:5432`;

const ALL_WORKLOADS: WorkloadId[] = ['W0', 'W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W8'];

function positive(name: string, text: string | undefined): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} needs a positive number\n${USAGE}`);
  return n;
}

function compareStart(text: string | undefined): StartWords {
  try {
    return startWords((text ?? '').split(/\s+/).filter((word) => word !== ''));
  } catch (error) {
    throw new Error(`--compare-flags: ${(error as Error).message}\n${USAGE}`, { cause: error });
  }
}

/** Full run by default; `--quick` shortens every run (one round of 2 s). Later flags override the mode's defaults. */
export function parseOptions(argv: string[]): Options {
  const quick = argv.includes('--quick');
  const options: Options = {
    databases: [],
    quick,
    // Both adapters even when quick: issue 31's targets name each of them (Express is the default most users run).
    adapters: ['express', 'fastify'],
    workloads: ALL_WORKLOADS,
    durationSeconds: quick ? 2 : 5,
    warmupSeconds: quick ? 1 : 2,
    rounds: quick ? 1 : 3,
    connections: 32,
    storm: true,
    stormSeconds: quick ? 4 : 10,
    scaling: true,
    scaleCustomers: 1_000_000,
    scaleSiblings: 100_000,
    scaleSeconds: quick ? 2 : 4,
    scaleRounds: quick ? 1 : 3,
    profile: false,
    rewriteResults: false,
    writeResults: !quick,
  };
  const adapters: AdapterName[] = [];
  // A run that measures less than everything, or differently, is not a full run: it must not replace RESULTS.md.
  let partial = false;
  let writeFlag: boolean | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    if (!['--quick', '--db', '--write-results', '--no-write-results'].includes(arg)) partial = true;
    switch (arg) {
      case '--quick':
        break;
      case '--db':
        options.databases.push(value());
        break;
      case '--adapter': {
        const name = value();
        if (name !== 'express' && name !== 'fastify') throw new Error(`--adapter is express or fastify\n${USAGE}`);
        adapters.push(name);
        break;
      }
      case '--workloads': {
        const ids = value()
          .toUpperCase()
          .split(',')
          .map((s) => s.trim());
        const unknown = ids.filter((id) => !ALL_WORKLOADS.includes(id as WorkloadId));
        if (unknown.length > 0) throw new Error(`unknown workload(s) ${unknown.join(', ')}\n${USAGE}`);
        options.workloads = ids as WorkloadId[];
        break;
      }
      case '--duration':
        options.durationSeconds = positive(arg, value());
        break;
      case '--rounds':
        options.rounds = Math.round(positive(arg, value()));
        break;
      case '--connections':
        options.connections = Math.round(positive(arg, value()));
        break;
      case '--no-storm':
        options.storm = false;
        break;
      case '--no-scaling':
        options.scaling = false;
        break;
      case '--scale-customers':
        options.scaleCustomers = Math.round(positive(arg, value()));
        break;
      case '--profile':
        options.profile = true;
        break;
      case '--compare-build':
        options.compareBuild = value();
        break;
      case '--compare-flags':
        options.compareFlags = compareStart(value());
        break;
      case '--rewrite-results':
        options.rewriteResults = true;
        break;
      case '--write-results':
        writeFlag = true;
        break;
      case '--no-write-results':
        writeFlag = false;
        break;
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  if (adapters.length > 0) options.adapters = adapters;
  options.writeResults = writeFlag ?? (!quick && !partial);
  if (options.databases.length === 0) options.databases.push('sqlite');
  return options;
}
