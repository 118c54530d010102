/**
 * What the reference servers answer, whatever carries the bytes: the raw server (node:http,
 * bench/raw/server.ts) and express-bare (Express 5 and nothing else, bench/raw/express-bare.ts)
 * share these, so the two differ only by their HTTP layer.
 */
import { randomUUID } from 'node:crypto';
import { CUSTOMER, canonical, checksum, toObject } from './rows.js';
import type { RawStore } from './store.js';
import type { RawPrincipal, RawTokens } from './tokens.js';

export const BASE = '/rest/default/demo/v1';

/** The environment variable that carries Tessera's @heartbeat headers to the reference servers (JSON, in Tessera's order). */
export const HEARTBEAT_HEADERS_ENV = 'BENCH_HEARTBEAT_HEADERS';

/** Set to 1, raw serves as raw-rules: a line item's POST writes what the demo's rules write for it. */
export const RAW_LINEITEM_RULES_ENV = 'RAW_LINEITEM_RULES';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** One answer: status, the value JSON.stringify writes, and the headers besides Content-Type and Content-Length. */
export interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Headers the HTTP layer writes by itself on every server (so they are not copied), or that
 * differ per request by nature (the date).
 */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'transfer-encoding']);

/**
 * The headers of Tessera's @heartbeat answer that a reference server must send too, so that W0
 * puts the same bytes on the wire: Tessera's security headers (helmet's set), its
 * Cache-Control, and its X-Request-Id, whose value each server makes per request (a random
 * UUID, as Tessera does). Lower-cased, in Tessera's order.
 */
export function copiedHeaders(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (!TRANSPORT_HEADERS.has(lower)) out[lower] = value;
  }
  return out;
}

/**
 * The @heartbeat answer: `{"status":"OK"}` with the copied headers (none when the harness gave
 * none), a fresh request id in place of Tessera's when it sends one. W1 to W8 stay as they were
 * (no security headers), so their ratios compare with earlier runs.
 */
export function heartbeat(copied: Record<string, string>): () => Answer {
  const entries = Object.entries(copied);
  const perRequestId = 'x-request-id' in copied;
  if (!perRequestId) return () => ({ status: 200, body: { status: 'OK' }, headers: copied });
  return () => {
    const headers: Record<string, string> = {};
    for (const [name, value] of entries) headers[name] = name === 'x-request-id' ? randomUUID() : value;
    return { status: 200, body: { status: 'OK' }, headers };
  };
}

/** The copied headers from the environment (see HEARTBEAT_HEADERS_ENV); none when unset. */
export function heartbeatHeadersFromEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const text = env[HEARTBEAT_HEADERS_ENV];
  return text ? (JSON.parse(text) as Record<string, string>) : {};
}

/** The caller's principal; undefined when the server runs without a token check. */
export function principalOf(tokens: RawTokens, requireToken: boolean, authorization: string | undefined): RawPrincipal | undefined {
  if (!requireToken) return undefined;
  const principal = tokens.verify(authorization);
  if (!principal) throw new HttpError(401, 4011, 'The auth token is unknown or disabled.');
  return principal;
}

/** POST @authentication: a token for a correct password, saved in the database as Tessera saves its own. */
export async function loginAnswer(store: RawStore, tokens: RawTokens, body: Record<string, unknown>): Promise<Answer> {
  const issued =
    typeof body.username === 'string' && typeof body.password === 'string' ? await tokens.login(body.username, body.password) : undefined;
  if (!issued) throw new HttpError(401, 4013, 'Login failed.');
  await store.saveToken(issued.hash, issued.principal.user, issued.expiration);
  return {
    status: 200,
    body: {
      apikey: issued.apikey,
      expiration: new Date(issued.expiration).toISOString(),
      lastLoginTs: null,
      lastLoginIP: null,
      email: null,
    },
    headers: {},
  };
}

/** W1: one customer by key, with its checksum as ETag; an empty list when there is none. */
export async function customerAnswer(store: RawStore, key: string, base: string): Promise<Answer> {
  const raw = await store.customer(key);
  if (!raw) return { status: 200, body: [], headers: {} };
  const row = canonical(CUSTOMER, raw);
  return { status: 200, body: [toObject(CUSTOMER, row, base)], headers: { ETag: `"${checksum(CUSTOMER, row)}"` } };
}

/** An error in Tessera's shape; anything but an HttpError is a 500, and goes to stderr. */
export function errorAnswer(error: unknown, server: string): Answer {
  const e = error instanceof HttpError ? error : new HttpError(500, 5000, 'Internal error.');
  if (!(error instanceof HttpError)) process.stderr.write(`${server}: ${(error as Error).stack ?? String(error)}\n`);
  return { status: e.status, body: { statusCode: e.status, errorCode: e.code, errorMessage: e.message }, headers: {} };
}
