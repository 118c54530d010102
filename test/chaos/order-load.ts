import type { Answer, InstanceClient } from '../support/instance-client.js';
import {
  ABSENT,
  CUSTOMER_PRESENT,
  customerKey,
  DocumentLedger,
  orderKey,
  orderState,
  type Change,
  type OrderDocument,
  type OrderItem,
  type Outcome,
} from './document-ledger.js';

/** An order a client wrote and knows for sure (its last write on it was answered). */
interface OwnedOrder {
  tag: string;
  orderNumber: number;
  document: OrderDocument;
}

type SummaryRow = Record<string, unknown> & { '@metadata': { resource: string; verb: string } };

export interface LoadTarget {
  /** Customers the clients' new orders go to (with room under their credit limits). */
  customers: string[];
  products: number[];
}

/** Credit limit of the customers the load creates: no order of the run comes near it. */
const CREDIT_LIMIT = 1_000_000_000;

const random = (from: number, to: number): number => from + Math.floor(Math.random() * (to - from + 1));
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

/**
 * Nested writes through the demo's custom resources, from several clients at once: new orders
 * with their line items (`POST OrderEntry`), new customers with orders and line items
 * (`POST Customers`), changes to an order's document (`PUT OrderEntry/n`: a quantity, an item
 * added, one deleted, paid toggled) and order deletions. Every write and its answer goes into
 * the ledger. A client acts only on its own orders, one write at a time, and leaves an order
 * alone once a write on it went unanswered (its state is then one of two).
 */
export class OrderLoad {
  readonly ledger = new DocumentLedger();
  /** Answers by `status/errorCode` (status 0: no answer). */
  readonly answers: Record<string, number> = {};
  /** Answers no write of the load should get (a lost order answers 404, say). */
  readonly unexpected: string[] = [];
  /** Writes sent and not answered yet. */
  inFlight = 0;
  acknowledged = 0;

  constructor(private readonly target: LoadTarget) {}

  /** One client's loop: writes while `running()`, each after `ready()` (the service is up). */
  async client(client: InstanceClient, id: number, running: () => boolean, ready: () => Promise<void>): Promise<void> {
    const mine: OwnedOrder[] = [];
    let sequence = 0;
    for (;;) {
      await ready();
      if (!running()) return;
      const tag = `${id}-${++sequence}`;
      const roll = Math.random();
      if (mine.length === 0 || roll < 0.35) await this.postOrder(client, `chaos ${tag}`, mine);
      else if (roll < 0.5) await this.postCustomer(client, tag, mine);
      else if (roll < 0.85) await this.putOrder(client, mine);
      else await this.deleteOrder(client, mine);
    }
  }

  private async postOrder(client: InstanceClient, tag: string, mine: OwnedOrder[]): Promise<void> {
    const document: OrderDocument = { customer: pick(this.target.customers), paid: false, items: this.newItems(1, 4) };
    const res = await this.write(
      client,
      `POST OrderEntry ${tag}`,
      [{ key: orderKey(tag), before: ABSENT, after: orderState(document) }],
      () => client.post('/OrderEntry', { customer_name: document.customer, notes: tag, Lineitems: this.lineitemsOf(document.items) }),
      201,
    );
    if (res) mine.push(ownedFrom(res, tag, document));
  }

  private async postCustomer(client: InstanceClient, tag: string, mine: OwnedOrder[]): Promise<void> {
    const name = `Chaos ${tag}`;
    const orders = Array.from({ length: random(1, 2) }, (_, i) => ({
      tag: `chaos ${tag}.${i + 1}`,
      document: { customer: name, paid: false, items: this.newItems(1, 3) } satisfies OrderDocument,
    }));
    const changes: Change[] = [
      { key: customerKey(name), before: ABSENT, after: CUSTOMER_PRESENT },
      ...orders.map((o) => ({ key: orderKey(o.tag), before: ABSENT, after: orderState(o.document) })),
    ];
    const res = await this.write(
      client,
      `POST Customers ${name}`,
      changes,
      () =>
        client.post('/Customers', {
          name,
          credit_limit: CREDIT_LIMIT,
          Orders: orders.map((o) => ({ notes: o.tag, Lineitems: this.lineitemsOf(o.document.items) })),
        }),
      201,
    );
    if (res) for (const o of orders) mine.push(ownedFrom(res, o.tag, o.document));
  }

  /** Changes one quantity, and maybe adds an item, deletes another, toggles paid: one document, one transaction. */
  private async putOrder(client: InstanceClient, mine: OwnedOrder[]): Promise<void> {
    const order = pick(mine);
    const next: OrderDocument = { ...order.document, items: order.document.items.map((i) => ({ ...i })) };
    const lineitems: unknown[] = [];
    const changed = next.items.length > 0 ? pick(next.items) : undefined;
    if (changed) {
      changed.qty = (changed.qty % 9) + 1;
      lineitems.push({ '@metadata': { checksum: 'override' }, lineitem_id: changed.id, qty_ordered: changed.qty });
    }
    const deletable = next.items.filter((i) => i !== changed);
    if (deletable.length > 0 && Math.random() < 0.3) {
      const gone = pick(deletable);
      next.items.splice(next.items.indexOf(gone), 1);
      lineitems.push({ '@metadata': { action: 'DELETE', checksum: 'override' }, lineitem_id: gone.id });
    }
    const added = !changed || Math.random() < 0.5 ? this.newItems(1, 1)[0] : undefined;
    if (added) {
      next.items.push(added);
      lineitems.push({ '@metadata': { action: 'INSERT' }, product_number: added.product, qty_ordered: added.qty });
    }
    const toggle = Math.random() < 0.25;
    if (toggle) next.paid = !next.paid;
    const res = await this.write(
      client,
      `PUT OrderEntry ${order.tag}`,
      [{ key: orderKey(order.tag), before: orderState(order.document), after: orderState(next) }],
      () =>
        client.put(`/OrderEntry/${order.orderNumber}`, {
          '@metadata': { checksum: 'override' },
          ...(toggle ? { paid: next.paid } : {}),
          Lineitems: lineitems,
        }),
      200,
    );
    if (res === undefined) return;
    if (res === null) {
      mine.splice(mine.indexOf(order), 1);
      return;
    }
    if (added) added.id = insertedItems(res, order.orderNumber)[0]?.id;
    order.document = next;
  }

  private async deleteOrder(client: InstanceClient, mine: OwnedOrder[]): Promise<void> {
    const order = pick(mine);
    const res = await this.write(
      client,
      `DELETE OrderEntry ${order.tag}`,
      [{ key: orderKey(order.tag), before: orderState(order.document), after: ABSENT }],
      () => client.delete(`/OrderEntry/${order.orderNumber}?checksum=override`),
      200,
    );
    // Deleted, or perhaps deleted: either way the client is done with it.
    if (res !== undefined) mine.splice(mine.indexOf(order), 1);
  }

  /**
   * Sends one write and records it with its outcome. Resolves with the answer when it was
   * acknowledged, null when it got none (the entities' state is now uncertain), undefined when
   * it was refused (nothing changed).
   */
  private async write(
    client: InstanceClient,
    label: string,
    changes: Change[],
    send: () => Promise<Answer>,
    ok: number,
  ): Promise<Answer | null | undefined> {
    this.inFlight += 1;
    const res = await send();
    this.inFlight -= 1;
    const answer = `${res.status}/${res.body.errorCode ?? ''}`;
    this.answers[answer] = (this.answers[answer] ?? 0) + 1;
    const outcome = outcomeOf(res, ok);
    this.ledger.record(label, changes, outcome);
    // 409 / 4093: retries did not get it through within WRITE_RETRY_BUDGET_MS (nothing written);
    // 503 / 5030: the database connection failed. Anything else but success or no answer is a finding.
    const expected = outcome === 'acknowledged' || res.status === 0 || answer === '409/4093' || answer === '503/5030';
    if (!expected) this.unexpected.push(`${client.name} ${label}: ${answer} ${JSON.stringify(res.body).slice(0, 300)}`);
    if (outcome === 'acknowledged') {
      this.acknowledged += 1;
      return res;
    }
    return outcome === 'unanswered' ? null : undefined;
  }

  private newItems(from: number, to: number): OrderItem[] {
    return Array.from({ length: random(from, to) }, () => ({ product: pick(this.target.products), qty: random(1, 5) }));
  }

  private lineitemsOf(items: OrderItem[]): Array<{ product_number: number; qty_ordered: number }> {
    return items.map((i) => ({ product_number: i.product, qty_ordered: i.qty }));
  }
}

function outcomeOf(res: Answer, ok: number): Outcome {
  if (res.status === ok) return 'acknowledged';
  if (res.status === 0 || res.status >= 500) return 'unanswered';
  return 'refused';
}

function summaryOf(res: Answer): SummaryRow[] {
  return (res.body.txsummary as SummaryRow[] | undefined) ?? [];
}

/** How the summary names the rows of the documents this load writes: by their level (OrderEntry, or Customers below its customer). */
const ORDER_LEVELS = new Set(['OrderEntry', 'Customers.Orders']);
const LINEITEM_LEVELS = new Set(['OrderEntry.Lineitems', 'Customers.Orders.Lineitems']);

/** The line items the write inserted into this order, from its transaction summary. */
function insertedItems(res: Answer, orderNumber: number): OrderItem[] {
  return summaryOf(res)
    .filter((r) => LINEITEM_LEVELS.has(r['@metadata'].resource) && r['@metadata'].verb === 'INSERT' && r.order_number === orderNumber)
    .map((r) => ({ id: r.lineitem_id as number, product: r.product_number as number, qty: r.qty_ordered as number }));
}

/** The order tagged `tag` that an acknowledged POST inserted, with its key and its line items' keys. */
function ownedFrom(res: Answer, tag: string, document: OrderDocument): OwnedOrder {
  const row = summaryOf(res).find((r) => ORDER_LEVELS.has(r['@metadata'].resource) && r['@metadata'].verb === 'INSERT' && r.notes === tag);
  if (!row) throw new Error(`no inserted order ${tag} in ${JSON.stringify(res.body).slice(0, 500)}`);
  const orderNumber = row.order_number as number;
  const items = insertedItems(res, orderNumber);
  if (orderState({ ...document, items }) !== orderState(document))
    throw new Error(`the summary of ${tag} lists other line items than were sent: ${JSON.stringify(items)}`);
  return { tag, orderNumber, document: { ...document, items } };
}
