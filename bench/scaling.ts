import type { RequestSpec } from 'autocannon';
import { obtainTokens, type TokenMode } from './auth-step.js';
import { prng } from './dataset.js';
import { runLoad, type Measurement } from './load.js';
import type { AdapterName } from './options.js';
import type { ScalePair, ScalingResult } from './results.js';
import { waitForQuiet, type ServerProcess } from './server-process.js';
import { startTessera, type TesseraLaunch } from './servers.js';
import { summarize } from './summary.js';
import { API_BASE, workload, type WorkloadContext, type WorkloadId } from './workloads.js';

export interface ScalingOptions {
  adapter: AdapterName;
  /** The main database (the data set's 1,000 customers). */
  smallUrl: string;
  smallData: Pick<WorkloadContext, 'customers' | 'orders' | 'products'>;
  /** The scaling database: many customers and the two sibling orders. */
  largeUrl: string;
  largeData: Pick<WorkloadContext, 'customers' | 'orders' | 'products'>;
  /** [order with few siblings, order with many], and how many each has. */
  siblingOrders: Array<{ id: number; siblings: number }>;
  seconds: number;
  rounds: number;
  connections: number;
  log: (line: string) => void;
}

interface Side {
  server: ServerProcess;
  ctx: WorkloadContext;
}

/**
 * One side of the scaling comparison: a Tessera server, logged in. When the login fails (issue
 * 31 saw a 429 there) the server is stopped before the error goes on: it was left running.
 * `start` and `login` are the real ones but in the specs.
 */
export async function side(
  url: string,
  adapter: AdapterName,
  label: string,
  data: ScalingOptions['smallData'],
  start: (launch: TesseraLaunch) => Promise<ServerProcess> = startTessera,
  login: (url: string) => Promise<TokenMode> = obtainTokens,
): Promise<Side> {
  const server = await start({ databaseUrl: url, adapter, label });
  try {
    const tokens = await login(server.url);
    const auth = tokens.kind === 'token' ? { demoAuth: tokens.demoAuth, samAuth: tokens.samAuth } : {};
    return { server, ctx: { ...data, ...auth } };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Starts things one after the other; when one fails to start, stops those already started, then fails. */
export async function startInTurn<T>(starters: Array<() => Promise<T>>, stop: (started: T) => Promise<void>): Promise<T[]> {
  const started: T[] = [];
  try {
    for (const start of starters) started.push(await start());
    return started;
  } catch (error) {
    await Promise.allSettled(started.map(stop));
    throw error;
  }
}

/** Line items posted to one order, one connection: each request's latency is the cost of one insert and its rule cascade. */
function insertInto(order: number, ctx: WorkloadContext): RequestSpec[] {
  const random = prng(order);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(ctx.demoAuth ? { authorization: ctx.demoAuth } : {}) };
  return [
    {
      method: 'POST',
      headers,
      setupRequest: (request) => ({
        ...request,
        method: 'POST',
        headers,
        path: `${API_BASE}/lineitem`,
        body: JSON.stringify({ order_number: order, product_number: 1 + Math.floor(random() * ctx.products), qty_ordered: 1 }),
      }),
    },
  ];
}

async function rowsWritten(server: ServerProcess, order: number, ctx: WorkloadContext): Promise<string> {
  const spec = insertInto(order, ctx)[0]!;
  const request = spec.setupRequest!({}, {});
  const response = await fetch(`${server.url}${request.path}`, { method: 'POST', headers: request.headers, body: request.body });
  const body = (await response.json()) as { txsummary?: unknown[] };
  return response.ok ? `each insert writes ${body.txsummary?.length ?? 0} row(s)` : `probe answered ${response.status}`;
}

async function alternate(
  label: string,
  small: string,
  large: string,
  rounds: number,
  a: () => Promise<Measurement>,
  b: () => Promise<Measurement>,
  log: (line: string) => void,
  oneConnection = false,
): Promise<ScalePair> {
  const as: Measurement[] = [];
  const bs: Measurement[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [run, list, name] of (r % 2 === 0
      ? [
          [a, as, small],
          [b, bs, large],
        ]
      : [
          [b, bs, large],
          [a, as, small],
        ]) as Array<[() => Promise<Measurement>, Measurement[], string]>) {
      const m = await run();
      list.push(m);
      log(
        `scaling ${label} (${name}) round ${r + 1}: ${Math.round(m.rps)} req/s, p50 ${m.p50} ms${m.errors || m.non2xx ? `, ${m.errors} errors, ${m.non2xx} non-2xx` : ''}`,
      );
    }
  }
  const sa = summarize(as);
  const sb = summarize(bs);
  const ms = (c: typeof sa): number => (oneConnection ? 1000 / c.rps : c.p50);
  return {
    label,
    small,
    large,
    smallRps: sa.rps,
    largeRps: sb.rps,
    smallMs: ms(sa),
    largeMs: ms(sb),
    msLabel: oneConnection ? 'per request' : 'p50',
    valid: sa.valid && sb.valid,
  };
}

/** Does the cost of a request grow with the data? Line-item insert by sibling count; W1 and W2 by customer count. */
export async function runScaling(options: ScalingOptions): Promise<ScalingResult> {
  const fmtN = (n: number): string => n.toLocaleString('en-US');
  const [small, large] = (await startInTurn(
    [
      () => side(options.smallUrl, options.adapter, `tessera/${options.adapter}@${fmtN(options.smallData.customers)}`, options.smallData),
      () => side(options.largeUrl, options.adapter, `tessera/${options.adapter}@${fmtN(options.largeData.customers)}`, options.largeData),
    ],
    (s) => s.server.stop(),
  )) as [Side, Side];
  try {
    const quiet = () => waitForQuiet();
    const load = (s: Side, id: WorkloadId) => async () => (
      await quiet(),
      runLoad({
        url: s.server.url,
        pid: s.server.pid,
        connections: options.connections,
        durationSeconds: options.seconds,
        requests: workload(id).requests(s.ctx, 5),
      })
    );
    for (const s of [small, large]) await load(s, 'W1')();
    const customers = (n: number): string => `${fmtN(n)} customers`;
    const w1 = await alternate(
      'W1 GET one customer',
      customers(options.smallData.customers),
      customers(options.largeData.customers),
      options.rounds,
      load(small, 'W1'),
      load(large, 'W1'),
      options.log,
    );
    const w2 = await alternate(
      'W2 GET 20 customers, filtered and sorted',
      customers(options.smallData.customers),
      customers(options.largeData.customers),
      options.rounds,
      load(small, 'W2'),
      load(large, 'W2'),
      options.log,
    );

    const [few, many] = options.siblingOrders;
    const insert = (order: number) => async () => (
      await quiet(),
      runLoad({
        url: large.server.url,
        pid: large.server.pid,
        connections: 1,
        durationSeconds: options.seconds,
        requests: insertInto(order, large.ctx),
      })
    );
    const note = await rowsWritten(large.server, few!.id, large.ctx);
    await insert(few!.id)();
    await insert(many!.id)();
    const pair = await alternate(
      'line-item insert, 1 connection',
      `${fmtN(few!.siblings)} siblings`,
      `${fmtN(many!.siblings)} siblings`,
      options.rounds,
      insert(few!.id),
      insert(many!.id),
      options.log,
      true,
    );
    return { server: `tessera/${options.adapter}`, insert: { ...pair, note }, w1, w2 };
  } finally {
    await small.server.stop();
    await large.server.stop();
  }
}
