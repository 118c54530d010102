import type { RequestSpec } from 'autocannon';
import { SAM_EMPLOYEE_ID } from './dataset.js';
import { copiedHeaders } from './raw/answers.js';
import { API_BASE, type Workload, type WorkloadContext } from './workloads.js';

export interface Probe {
  status: number;
  body: unknown;
}

/** Sends the first request of a workload once, outside the load, to see what the server does with it. */
export async function probe(url: string, workload: Workload, ctx: WorkloadContext): Promise<Probe> {
  const spec: RequestSpec = workload.requests(ctx, 1)[0]!;
  const request = spec.setupRequest
    ? spec.setupRequest({ method: spec.method, path: spec.path, headers: spec.headers, body: spec.body }, {})
    : spec;
  const response = await fetch(`${url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

/**
 * Facts about the work a request did, for the table's notes: how many rows a line-item
 * insert wrote (the rule cascade), whether sam's order page was row-filtered.
 */
export function describeProbe(workload: Workload, result: Probe): { ok: boolean; note?: string } {
  const ok = result.status >= 200 && result.status < 300;
  if (!ok) return { ok, note: `probe answered ${result.status}: ${JSON.stringify(result.body).slice(0, 200)}` };
  if (workload.id === 'W3' || workload.id === 'W7' || workload.id === 'W8') {
    const rows = (result.body as { txsummary?: unknown[] }).txsummary?.length ?? 0;
    return { ok, note: `writes ${rows} row${rows === 1 ? '' : 's'}` };
  }
  if (workload.id === 'W6') {
    const orders = (result.body as Array<{ salesrep_id?: unknown }>).filter((o) => 'salesrep_id' in o);
    const filtered = orders.length > 0 && orders.every((o) => o.salesrep_id === SAM_EMPLOYEE_ID);
    return { ok, note: filtered ? 'row filter applied' : 'NO row filter (roles not landed)' };
  }
  return { ok };
}

/** The same answer with the origin of hrefs taken out, so two servers' bodies compare equal. */
export function withoutOrigin(body: unknown): string {
  return JSON.stringify(body).replace(/http:\/\/127\.0\.0\.1:\d+/g, '');
}

/** What a server answers to W0 (GET @heartbeat): status, body, and the headers a reference server copies (see `copiedHeaders`). */
export interface HeartbeatAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export async function heartbeatOf(url: string): Promise<HeartbeatAnswer> {
  const response = await fetch(`${url}${API_BASE}/@heartbeat`);
  return { status: response.status, body: await response.text(), headers: copiedHeaders(response.headers) };
}

/**
 * Why two servers' W0 answers differ (status, body, or a copied header: name or value), or
 * undefined when they are the same bytes but for the date and the request id's value, which
 * differ per request on every server.
 */
export function heartbeatDifference(a: HeartbeatAnswer, b: HeartbeatAnswer): string | undefined {
  if (a.status !== b.status) return `status ${a.status} and ${b.status}`;
  if (a.body !== b.body) return `body ${a.body} and ${b.body}`;
  const names = [...new Set([...Object.keys(a.headers), ...Object.keys(b.headers)])];
  const differing = names.filter((n) => (n === 'x-request-id' ? n in a.headers !== n in b.headers : a.headers[n] !== b.headers[n]));
  return differing.length === 0
    ? undefined
    : `header(s) ${differing.map((n) => `${n}: ${a.headers[n] ?? '(none)'} and ${b.headers[n] ?? '(none)'}`).join('; ')}`;
}

type SummaryEntry = Record<string, unknown> & { '@metadata': { resource?: string; verb?: string } };

const entryShape = (e: SummaryEntry): string => `${e['@metadata'].verb} ${e['@metadata'].resource}(${Object.keys(e).join(',')})`;
const money = (x: unknown): string => (typeof x === 'number' ? x.toFixed(4) : String(x));

/**
 * Why raw-rules' answer to a line item's POST is not what Tessera's rules wrote, or undefined
 * when it is. `first` is Tessera's transaction summary and `second` raw-rules', for the same
 * line item posted to the same order right after: the same rows (resource, verb, columns, in
 * order), each total moved on from Tessera's by the line item's amount, and the audit row
 * holding the order as Tessera left it.
 */
export function ruleWritesDifference(first: unknown, second: unknown): string | undefined {
  const rowsOf = (body: unknown): SummaryEntry[] => (body as { txsummary?: SummaryEntry[] } | undefined)?.txsummary ?? [];
  const [a, b] = [rowsOf(first), rowsOf(second)];
  const shapes = [a.map(entryShape).join('; '), b.map(entryShape).join('; ')];
  if (shapes[0] !== shapes[1]) return `the rows written differ:\n  tessera: ${shapes[0]}\n  raw-rules: ${shapes[1]}`;
  const find = (rows: SummaryEntry[], resource: string): SummaryEntry | undefined => rows.find((e) => e['@metadata'].resource === resource);
  const amount = Number(find(b, 'lineitem')?.amount);
  const moved = (resource: string, column: string): string | undefined => {
    const [before, after] = [find(a, resource)?.[column], find(b, resource)?.[column]];
    if (before === undefined && after === undefined) return undefined;
    const expected = money(Number(before) + amount);
    return money(after) === expected ? undefined : `${resource}.${column} is ${money(after)}, not ${money(before)} + ${money(amount)}`;
  };
  const problems = [
    Number.isFinite(amount) ? undefined : 'no line item amount',
    moved('main:purchaseorder', 'amount_total'),
    moved('main:purchaseorder', 'amount_owed'),
    moved('main:customer', 'balance'),
    money(find(b, 'main:purchaseorder_audit')?.amount_total) === money(find(a, 'main:purchaseorder')?.amount_total)
      ? undefined
      : "the audit row does not hold the order's total before the insert",
  ].filter(Boolean);
  return problems.length > 0 ? problems.join('; ') : undefined;
}
