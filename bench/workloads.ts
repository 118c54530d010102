import type { RequestSpec } from 'autocannon';
import { customerName, prng, type HotParents } from './dataset.js';

export const API_BASE = '/rest/default/demo/v1';
export const PASSWORD = 'Password1';

export type WorkloadId = 'W0' | 'W1' | 'W2' | 'W3' | 'W4' | 'W5' | 'W6' | 'W7' | 'W8';

/** What a workload needs to know about the data and the server's tokens. */
export interface WorkloadContext {
  customers: number;
  orders: number;
  products: number;
  /** `Authorization` header value of the demo user (Full access), or undefined when the server has no token check. */
  demoAuth?: string;
  /** The same for sam (Sales rep). */
  samAuth?: string;
  /** W7 and W8's order and customer (see `hotParents`); absent, they use order 1 alone. */
  hot?: HotParents;
}

export interface Workload {
  id: WorkloadId;
  title: string;
  /** The request sequence autocannon repeats; `setupRequest` varies keys and values per request. */
  requests(ctx: WorkloadContext, seed: number): RequestSpec[];
}

export const authHeader = (apikey: string): string => `CALiveAPICreator ${apikey}:1`;

const JSON_HEADERS = { 'content-type': 'application/json' };

function withAuth(auth: string | undefined, headers: Record<string, string> = {}): Record<string, string> {
  return auth ? { ...headers, authorization: auth } : headers;
}

/** One request spec whose path and body change each time. */
function varying(
  method: string,
  headers: Record<string, string>,
  next: (int: (n: number) => number) => { path: string; body?: string },
  seed: number,
): RequestSpec[] {
  const random = prng(seed);
  const int = (n: number): number => Math.floor(random() * n);
  return [
    {
      method,
      headers,
      setupRequest: (request) => ({ ...request, method, headers, ...next(int) }),
    },
  ];
}

/** One line item into one of `orders` (a random one), of a random product. */
function lineItemInto(ctx: WorkloadContext, orders: readonly number[], seed: number): RequestSpec[] {
  return varying(
    'POST',
    withAuth(ctx.demoAuth, JSON_HEADERS),
    (int) => ({
      path: `${API_BASE}/lineitem`,
      body: JSON.stringify({ order_number: orders[int(orders.length)], product_number: 1 + int(ctx.products), qty_ordered: 1 + int(3) }),
    }),
    seed,
  );
}

export const WORKLOADS: Workload[] = [
  {
    // No token, no database: what each server spends on HTTP alone (routing, headers, JSON). Tessera answers it
    // with its security headers and a request id; raw and express-bare send the same headers (see bench/raw/answers.ts).
    id: 'W0',
    title: 'GET @heartbeat (the HTTP floor)',
    requests: () => [{ method: 'GET', path: `${API_BASE}/@heartbeat` }],
  },
  {
    id: 'W1',
    title: 'GET one customer by key',
    requests: (ctx, seed) =>
      varying(
        'GET',
        withAuth(ctx.demoAuth),
        (int) => ({ path: `${API_BASE}/customer/${encodeURIComponent(customerName(int(ctx.customers)))}` }),
        seed,
      ),
  },
  {
    id: 'W2',
    title: 'GET 20 customers, filtered and sorted',
    requests: (ctx, seed) =>
      varying(
        'GET',
        withAuth(ctx.demoAuth),
        (int) => ({
          path: `${API_BASE}/customer?filter=${encodeURIComponent(`balance > ${int(10_000)}`)}&order=${encodeURIComponent('balance desc')}&pagesize=20`,
        }),
        seed,
      ),
  },
  {
    id: 'W3',
    title: 'POST one line item',
    requests: (ctx, seed) =>
      varying(
        'POST',
        withAuth(ctx.demoAuth, JSON_HEADERS),
        (int) => ({
          path: `${API_BASE}/lineitem`,
          body: JSON.stringify({ order_number: 1 + int(ctx.orders), product_number: 1 + int(ctx.products), qty_ordered: 1 + int(3) }),
        }),
        seed,
      ),
  },
  {
    id: 'W4',
    title: 'PUT one customer (checksum "override")',
    requests: (ctx, seed) =>
      varying(
        'PUT',
        withAuth(ctx.demoAuth, JSON_HEADERS),
        (int) => ({
          path: `${API_BASE}/customer/${encodeURIComponent(customerName(int(ctx.customers)))}`,
          // Far above any balance, and different each time so every PUT really writes.
          body: JSON.stringify({ '@metadata': { checksum: 'override' }, credit_limit: 1_000_000_000 + int(1_000_000) }),
        }),
        seed,
      ),
  },
  {
    id: 'W5',
    title: 'login (bcrypt cost 10)',
    requests: () => [
      {
        method: 'POST',
        path: `${API_BASE}/@authentication`,
        headers: JSON_HEADERS,
        body: JSON.stringify({ username: 'demo', password: PASSWORD }),
      },
    ],
  },
  {
    id: 'W6',
    title: 'GET one page of orders as Sales rep (sam)',
    requests: (ctx) => [{ method: 'GET', path: `${API_BASE}/purchaseorder?pagesize=20`, headers: withAuth(ctx.samAuth) }],
  },
  {
    id: 'W7',
    title: 'POST one line item, all into the same order',
    requests: (ctx, seed) => lineItemInto(ctx, (ctx.hot?.orders ?? [1]).slice(0, 1), seed),
  },
  {
    id: 'W8',
    title: "POST one line item into one of the same customer's orders",
    requests: (ctx, seed) => lineItemInto(ctx, ctx.hot?.orders ?? [1], seed),
  },
];

export function workload(id: WorkloadId): Workload {
  return WORKLOADS.find((w) => w.id === id)!;
}
