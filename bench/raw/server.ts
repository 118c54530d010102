/**
 * The raw baseline: node:http, the driver, the workloads' SQL, a token Map, JSON.stringify.
 * It is what one Node process can do at most for each workload while doing the same work
 * a real request needs (token check, role row filter, checksums, the same JSON), so the
 * harness reports Tessera as a fraction of it. It serves only the benchmark's requests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { installLoopDelayProbe } from '../loop-delay-probe.js';
import {
  BASE,
  HttpError,
  RAW_LINEITEM_RULES_ENV,
  customerAnswer,
  errorAnswer,
  heartbeat,
  heartbeatHeadersFromEnv,
  loginAnswer,
  principalOf,
  type Answer,
} from './answers.js';
import { CUSTOMER, LINEITEM, ORDER_AUDIT, ORDER_WRITTEN, PURCHASEORDER, canonical, checksum, toObject, useChecksumSecret } from './rows.js';
import type { RuleRefusal, RuleWrites } from './rule-writes.js';
import { openRawStore } from './store.js';
import { RawTokens } from './tokens.js';

const env = process.env;
const BODY_LIMIT = 1_048_576;
const requireToken = env.RAW_REQUIRE_TOKEN !== '0';
/** raw-rules: a line item's POST writes what the demo's rules write for it (see rule-writes.ts), not the line item alone. */
const lineItemRules = env[RAW_LINEITEM_RULES_ENV] === '1';
if (env.BENCH_LOOP_DELAY_FILE) installLoopDelayProbe(env.BENCH_LOOP_DELAY_FILE);
if (!env.CHECKSUM_SECRET) throw new Error("the raw server needs CHECKSUM_SECRET, the same as Tessera's");
await useChecksumSecret(env.CHECKSUM_SECRET);

const store = await openRawStore(env.DATABASE_URL ?? 'sqlite:./data/tessera.sqlite', Number(env.DB_POOL_SIZE ?? 10));
const tokens = await RawTokens.withDemoUsers(Number(env.BCRYPT_COST ?? 10));
const heartbeatAnswer = heartbeat(heartbeatHeadersFromEnv(env));

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const answer = (res: ServerResponse, a: Answer): void => send(res, a.status, a.body, a.headers);

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) reject(new HttpError(413, 4130, 'The request body is too large.'));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
        resolve(body as Record<string, unknown>);
      } catch {
        reject(new HttpError(400, 4000, 'The request body must be a JSON object.'));
      }
    });
    req.on('error', reject);
  });
}

function intParam(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  if (!/^\d{1,9}$/.test(text) || Number(text) > max) throw new HttpError(400, 4000, `Query parameter "${name}" must be a whole number.`);
  return Number(text);
}

function page(rows: unknown[], pageSize: number, nextUrl: () => string): unknown[] {
  if (rows.length <= pageSize) return rows;
  return [...rows.slice(0, pageSize), { '@metadata': { next_batch: nextUrl() } }];
}

function nextBatch(origin: string, path: string, query: URLSearchParams, offset: number): string {
  const next = new URLSearchParams(query);
  next.delete('auth');
  next.set('offset', String(offset));
  return `${origin}${path}?${next.toString()}`;
}

const BALANCE_FILTER = /^\s*balance\s*>\s*(\d+(?:\.\d+)?)\s*$/i;

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const query = new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
  if (!path.startsWith(`${BASE}/`)) throw new HttpError(404, 4040, 'Not found.');
  const rest = path.slice(BASE.length + 1);
  const slash = rest.indexOf('/');
  const resource = decodeURIComponent(slash < 0 ? rest : rest.slice(0, slash));
  const key = slash < 0 ? undefined : decodeURIComponent(rest.slice(slash + 1));
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const base = `${origin}${BASE}`;
  const method = req.method ?? 'GET';

  if (resource === '@heartbeat' && method === 'GET') {
    answer(res, heartbeatAnswer());
    return;
  }

  if (resource === '@authentication' && method === 'POST') {
    answer(res, await loginAnswer(store, tokens, await readJson(req)));
    return;
  }

  const principal = principalOf(tokens, requireToken, req.headers.authorization);

  if (resource === 'customer' && method === 'GET' && key !== undefined) {
    answer(res, await customerAnswer(store, key, base));
    return;
  }

  if (resource === 'customer' && method === 'GET') {
    const match = BALANCE_FILTER.exec(query.get('filter') ?? '');
    if (!match || !/^\s*balance\s+desc\s*$/i.test(query.get('order') ?? ''))
      throw new HttpError(400, 4001, 'The raw server knows one filter: balance > n, order balance desc.');
    const pageSize = intParam(query, 'pagesize', 20, 5000);
    const offset = intParam(query, 'offset', 0, 1_000_000_000);
    const rows = await store.customersOver(match[1]!, pageSize + 1, offset);
    const out = rows.map((raw) => toObject(CUSTOMER, canonical(CUSTOMER, raw), base));
    send(
      res,
      200,
      page(out, pageSize, () => nextBatch(origin, path, query, offset + pageSize)),
    );
    return;
  }

  if (resource === 'purchaseorder' && method === 'GET' && key === undefined) {
    const pageSize = intParam(query, 'pagesize', 20, 5000);
    const offset = intParam(query, 'offset', 0, 1_000_000_000);
    const rows = await store.orders(principal?.employeeId, pageSize + 1, offset);
    const out = rows.map((raw) => toObject(PURCHASEORDER, canonical(PURCHASEORDER, raw), base));
    send(
      res,
      200,
      page(out, pageSize, () => nextBatch(origin, path, query, offset + pageSize)),
    );
    return;
  }

  if (resource === 'lineitem' && method === 'POST') {
    const body = await readJson(req);
    const { order_number: order, product_number: product, qty_ordered: qty } = body;
    if (![order, product, qty].every((v) => Number.isSafeInteger(v)))
      throw new HttpError(400, 4000, 'order_number, product_number and qty_ordered must be integers.');
    if (lineItemRules) {
      const auditTime = new Date();
      const written = await store.insertLineItemThroughRules(order as number, product as number, qty as number, auditTime);
      send(res, 201, { statusCode: 201, txsummary: ruleSummary(written, auditTime, base) });
      return;
    }
    const row = canonical(LINEITEM, await store.insertLineItem(order as number, product as number, qty as number));
    send(res, 201, { statusCode: 201, txsummary: [toObject(LINEITEM, row, base, 'INSERT')] });
    return;
  }

  if (resource === 'customer' && method === 'PUT' && key !== undefined) {
    const body = await readJson(req);
    const given = (body['@metadata'] as { checksum?: unknown } | undefined)?.checksum;
    const limit = body.credit_limit;
    if (typeof given !== 'string') throw new HttpError(400, 4004, "An update needs the object's current checksum.");
    if (typeof limit !== 'number' || !Number.isFinite(limit)) throw new HttpError(400, 4000, 'credit_limit must be a number.');
    const result = await store.updateCreditLimit(
      key,
      limit.toFixed(4),
      (current) => given === 'override' || given === checksum(CUSTOMER, canonical(CUSTOMER, current)),
    );
    if (result === 'not-found') throw new HttpError(404, 4041, 'No customer with that key.');
    if (result === 'checksum') throw new HttpError(409, 4090, 'The customer was changed by someone else.');
    send(res, 200, { statusCode: 200, txsummary: [toObject(CUSTOMER, canonical(CUSTOMER, result), base, 'UPDATE')] });
    return;
  }

  throw new HttpError(404, 4040, 'The raw server does not serve this request.');
}

const REFUSALS: Record<RuleRefusal, HttpError> = {
  'no-order': new HttpError(400, 4000, 'No order with that order_number.'),
  'no-product': new HttpError(400, 4000, 'No product with that product_number.'),
  'over-limit': new HttpError(422, 4220, "The customer's balance would exceed their credit limit."),
};

/** The transaction summary of a line item written through the rules, in Tessera's order: the line item, its order, its customer, the audit row. */
function ruleSummary(written: RuleWrites | RuleRefusal, auditTime: Date, base: string): unknown[] {
  if (typeof written === 'string') throw REFUSALS[written];
  const { lineItem, orderBefore, order, customer, auditNumber } = written;
  const audit = { ...orderBefore, audit_number: auditNumber, audit_time: auditTime.toISOString() };
  return [
    toObject(LINEITEM, canonical(LINEITEM, lineItem), base, 'INSERT'),
    toObject(ORDER_WRITTEN, canonical(ORDER_WRITTEN, order), base, 'UPDATE', 'main:purchaseorder'),
    ...(customer ? [toObject(CUSTOMER, canonical(CUSTOMER, customer), base, 'UPDATE', 'main:customer')] : []),
    toObject(ORDER_AUDIT, canonical(ORDER_AUDIT, audit), base, 'INSERT', 'main:purchaseorder_audit'),
  ];
}

const server = createServer((req, res) => {
  route(req, res).catch((error: unknown) => {
    const e = errorAnswer(error, 'raw');
    if (!res.headersSent) answer(res, e);
  });
});
// Tessera's default (KEEP_ALIVE_TIMEOUT_MS), so the Keep-Alive header reads the same.
server.keepAliveTimeout = 65_000;
server.listen(Number(env.PORT ?? 8080), env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
