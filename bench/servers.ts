import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AdapterName } from './options.js';
import { HEARTBEAT_HEADERS_ENV, RAW_LINEITEM_RULES_ENV } from './raw/answers.js';
import { EXPRESS_BARE, RAW_RULES } from './results.js';
import { ServerProcess, type ServerSpec } from './server-process.js';
import { startScriptWords, type StartWords } from './start-words.js';
import { API_BASE } from './workloads.js';

/** The repository root (this file runs from dist/bench/). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const OUT_DIR = join(ROOT, 'bench', 'results');
export const LOG_DIR = join(OUT_DIR, 'logs');
export const PROFILE_DIR = join(OUT_DIR, 'profiles');

const TESSERA_MAIN = join(ROOT, 'dist', 'src', 'main.js');
const TESSERA_WITH_PROBE = join(ROOT, 'dist', 'bench', 'serve-tessera.js');
const RAW_SERVER = join(ROOT, 'dist', 'bench', 'raw', 'server.js');
const EXPRESS_BARE_SERVER = join(ROOT, 'dist', 'bench', 'raw', 'express-bare.js');

/** bcrypt cost 10 for every server: the W5 compares at the same cost. */
const BCRYPT_COST = '10';

/** One checksum secret for every server of a run, so raw computes the same keyed checksums as Tessera. */
const CHECKSUM_SECRET = randomBytes(32).toString('hex');

export interface TesseraLaunch {
  databaseUrl: string;
  adapter: AdapterName;
  /** Name in the table and in log file names. */
  label?: string;
  profile?: boolean;
  /** Another build's main.js instead of this checkout's (comparing two builds). */
  mainScript?: string;
  /** Environment and Node.js flags instead of the start script's (comparing a start setting). */
  start?: StartWords;
  /** Runs Tessera inside the event-loop probe wrapper and has it write to this file. */
  loopDelayFile?: string;
}

function logFile(name: string): string {
  mkdirSync(LOG_DIR, { recursive: true });
  return join(LOG_DIR, `${name.replace(/[^a-z0-9._-]+/gi, '_')}.log`);
}

function startScript(): StartWords {
  return startScriptWords((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start);
}

export function tesseraSpec(launch: TesseraLaunch): ServerSpec {
  const name = launch.label ?? `tessera/${launch.adapter}`;
  const start = launch.start ?? startScript();
  return {
    name,
    script: launch.loopDelayFile ? TESSERA_WITH_PROBE : (launch.mainScript ?? TESSERA_MAIN),
    nodeArgs: [...start.flags, ...profileArgs(launch.profile, name)],
    env: {
      ...start.env,
      DATABASE_URL: launch.databaseUrl,
      HTTP_ADAPTER: launch.adapter,
      LOG_LEVEL: 'warn',
      BCRYPT_COST,
      CHECKSUM_SECRET,
      ...(launch.loopDelayFile ? { BENCH_LOOP_DELAY_FILE: launch.loopDelayFile } : {}),
    },
    readyPath: `${API_BASE}/@heartbeat`,
    logFile: logFile(name),
  };
}

/**
 * `node --cpu-prof`, into a folder named after the server, e.g.
 * bench/results/profiles/tessera_fastify-1763790000000/. Node names each thread's profile by its
 * process and thread id there: a single file name would let the shutdown watchdog's thread
 * overwrite the main thread's profile. The main thread's is the largest file.
 */
function profileArgs(profile: boolean | undefined, name: string): string[] {
  if (!profile) return [];
  const dir = join(PROFILE_DIR, `${name.replace(/[^a-z0-9.@_-]+/gi, '_')}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/** How a reference server (raw, express-bare) runs. */
export interface ReferenceLaunch {
  databaseUrl: string;
  /** Check tokens (false only when Tessera has no @authentication, so both do the same work). */
  requireToken: boolean;
  profile?: boolean;
  loopDelayFile?: string;
  /** Tessera's @heartbeat headers (see `copiedHeaders`), which W0 answers with too; none when absent. */
  heartbeatHeaders?: Record<string, string>;
}

function referenceEnv(launch: ReferenceLaunch): Record<string, string> {
  return {
    DATABASE_URL: launch.databaseUrl,
    BCRYPT_COST,
    CHECKSUM_SECRET,
    RAW_REQUIRE_TOKEN: launch.requireToken ? '1' : '0',
    ...(launch.heartbeatHeaders ? { [HEARTBEAT_HEADERS_ENV]: JSON.stringify(launch.heartbeatHeaders) } : {}),
    ...(launch.loopDelayFile ? { BENCH_LOOP_DELAY_FILE: launch.loopDelayFile } : {}),
  };
}

export function rawSpec(launch: ReferenceLaunch): ServerSpec {
  const name = launch.loopDelayFile ? 'raw+loop-probe' : 'raw';
  return {
    name,
    script: RAW_SERVER,
    nodeArgs: profileArgs(launch.profile, 'raw'),
    env: referenceEnv(launch),
    readyPath: `${API_BASE}/@heartbeat`,
    logFile: logFile(name),
  };
}

/**
 * raw as raw-rules: a line item's POST writes what the demo's rules write (line item, order,
 * customer, audit row) by hand, so W3, W7 and W8 show what those writes cost without Tessera.
 */
export function rawRulesSpec(launch: Omit<ReferenceLaunch, 'loopDelayFile'>): ServerSpec {
  return {
    name: RAW_RULES,
    script: RAW_SERVER,
    nodeArgs: profileArgs(launch.profile, RAW_RULES),
    env: { ...referenceEnv(launch), [RAW_LINEITEM_RULES_ENV]: '1' },
    readyPath: `${API_BASE}/@heartbeat`,
    logFile: logFile(RAW_RULES),
  };
}

export { EXPRESS_BARE, RAW_RULES };

/** Express 5 bare (bench/raw/express-bare.ts): W0 and W1 only, with raw's answers, a child process like raw. */
export function expressBareSpec(launch: Omit<ReferenceLaunch, 'loopDelayFile'>): ServerSpec {
  return {
    name: EXPRESS_BARE,
    script: EXPRESS_BARE_SERVER,
    nodeArgs: profileArgs(launch.profile, EXPRESS_BARE),
    env: referenceEnv(launch),
    readyPath: `${API_BASE}/@heartbeat`,
    logFile: logFile(EXPRESS_BARE),
  };
}

export function startTessera(launch: TesseraLaunch): Promise<ServerProcess> {
  return ServerProcess.start(tesseraSpec(launch));
}
