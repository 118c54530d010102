import { RowChecksum } from '../../src/data/checksum.js';
import type { Resource } from '../../src/data/resource-registry.js';

/**
 * The raw server's rows: canonical values exactly as Tessera defines them (decimals as text
 * with scale 4, booleans as booleans), so its checksums are Tessera's own function over the
 * same values (keyed with the secret Tessera is given, see `useChecksumSecret`), and its JSON
 * is the same JSON.
 */
export type RawRow = Record<string, string | number | boolean | null>;

interface Table {
  name: string;
  key: string;
  decimals: ReadonlySet<string>;
  booleans: ReadonlySet<string>;
  /** Only `columns[].name` is read by rowChecksum. */
  resource: Resource;
}

function table(name: string, key: string, columns: string[], decimals: string[] = [], booleans: string[] = []): Table {
  return {
    name,
    key,
    decimals: new Set(decimals),
    booleans: new Set(booleans),
    resource: { columns: columns.map((c) => ({ name: c })) } as unknown as Resource,
  };
}

export const CUSTOMER = table('customer', 'name', ['name', 'balance', 'credit_limit'], ['balance', 'credit_limit']);
export const PURCHASEORDER = table(
  'purchaseorder',
  'order_number',
  ['order_number', 'customer_name', 'salesrep_id', 'amount_total', 'paid', 'notes'],
  ['amount_total'],
  ['paid'],
);
export const LINEITEM = table(
  'lineitem',
  'lineitem_id',
  ['lineitem_id', 'order_number', 'product_number', 'qty_ordered', 'product_price', 'amount'],
  ['product_price', 'amount'],
);

/** An order with every column, as a transaction summary shows it (W6's PURCHASEORDER is the page's columns). */
export const ORDER_WRITTEN = table(
  'purchaseorder',
  'order_number',
  ['order_number', 'customer_name', 'salesrep_id', 'amount_total', 'paid', 'amount_paid', 'amount_owed', 'notes'],
  ['amount_total', 'amount_paid', 'amount_owed'],
  ['paid'],
);

/** The audit row the demo's rules write when an order's total changes. */
export const ORDER_AUDIT = table(
  'purchaseorder_audit',
  'audit_number',
  ['audit_number', 'order_number', 'amount_total', 'paid', 'notes', 'customer_name', 'audit_time'],
  ['amount_total'],
  ['paid'],
);

/** A boolean as the drivers hand it back: SQLite and MySQL as 0/1 (or '1'), PostgreSQL as a boolean. */
export function driverTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** Driver values to canonical ones: SQLite hands back doubles and 0/1, MySQL 0/1, PostgreSQL decimal text. */
export function canonical(t: Table, raw: Record<string, unknown>): RawRow {
  const row: RawRow = {};
  for (const { name } of t.resource.columns) {
    const value = raw[name];
    if (value === null || value === undefined) row[name] = null;
    else if (t.decimals.has(name)) row[name] = typeof value === 'number' ? value.toFixed(4) : (value as string);
    else if (t.booleans.has(name)) row[name] = driverTrue(value);
    else row[name] = value as string | number;
  }
  return row;
}

let checksums: RowChecksum | undefined;

/** The checksum secret Tessera runs with (the harness gives both servers the same CHECKSUM_SECRET): the key is derived once, as Tessera does. */
export async function useChecksumSecret(secret: string): Promise<void> {
  checksums = await RowChecksum.fromSecret(secret);
}

export function checksum(t: Table, row: RawRow): string {
  if (!checksums) throw new Error('useChecksumSecret() was not called');
  return checksums.of(t.resource, row);
}

/** A `@metadata.links` entry of the demo's relations, in LAC's shape, as Tessera writes it. */
function link(rel: 'parent' | 'children', table: string, role: string, href: string): Record<string, string> {
  return { href, rel, role, type: `urn:caliveapicreator:demo:main:${table}` };
}

/** A sysfilter string literal in a link: quotes doubled, then URL-encoded. */
function textLiteral(value: string): string {
  return encodeURIComponent(`'${value.replaceAll("'", "''")}'`);
}

/**
 * The links of the objects the benchmark's GETs answer (customer read with Full access, purchaseorder read
 * by a Sales rep, who may read customer and lineitem but not employee): what Tessera's ObjectLinks gives them.
 */
function linksOf(t: Table, row: RawRow, base: string): Array<Record<string, string>> {
  if (t === CUSTOMER)
    return [
      link(
        'children',
        'purchaseorder',
        'purchaseorder',
        `${base}/purchaseorder?sysfilter=equal(customer_name:${textLiteral(String(row.name))})`,
      ),
      link('children', 'payment', 'payment', `${base}/payment?sysfilter=equal(customer_name:${textLiteral(String(row.name))})`),
    ];
  if (t === PURCHASEORDER)
    return [
      link('parent', 'customer', 'customer', `${base}/customer/${encodeURIComponent(String(row.customer_name))}`),
      link('children', 'lineitem', 'lineitem', `${base}/lineitem?sysfilter=equal(order_number:${String(row.order_number)})`),
    ];
  return [];
}

/**
 * An API object: `@metadata` first (with its links when it is not a txsummary entry), decimals
 * rendered as JSON numbers. A txsummary entry names its resource as Tessera does: the table's
 * name for the resource written to, `main:<table>` for a row the rules wrote (`resource`).
 */
export function toObject(t: Table, row: RawRow, base: string, verb?: string, resource = t.name): Record<string, unknown> {
  const href = `${base}/${t.name}/${encodeURIComponent(String(row[t.key]))}`;
  const out: Record<string, unknown> = {
    '@metadata': verb
      ? { href, resource, verb, checksum: checksum(t, row) }
      : { href, checksum: checksum(t, row), links: linksOf(t, row, base) },
  };
  for (const { name } of t.resource.columns) {
    const value = row[name] ?? null;
    out[name] = value !== null && t.decimals.has(name) ? Number(value) : value;
  }
  return out;
}
