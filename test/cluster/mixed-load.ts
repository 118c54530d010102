import type { Answer, InstanceClient } from '../support/instance-client.js';

/** What the load knows of one line item it wrote: its quantity when the last write on it was acknowledged. */
interface ItemRecord {
  qty: number;
  /** false once acknowledged deleted. */
  live: boolean;
  /** A write on it got no definite answer (503 or none): its state is either, so it is not checked. */
  uncertain: boolean;
}

export interface LoadFigures {
  requests: number;
  acknowledged: number;
  /** 409 / 4093: retries did not get the write through within the budget (nothing was written). */
  conflictAnswers: number;
  /** 503 / 5030, or no answer: the outcome is unknown (the node under the connection died mid-write). */
  unavailable: number;
  /** 422: a rule refused the write (nothing was written). */
  refused: number;
  unexpected: string[];
  /** Acknowledged writes per instance after `markKill()`. */
  acknowledgedAfterKill: Record<string, number>;
}

export interface LoadTarget {
  orders: number[];
  products: number[];
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

/**
 * Line-item inserts, quantity updates and deletes on a few demo orders, through several
 * instances at once. Each worker owns the items it inserted and acts on them one at a time,
 * so the ledger knows the state every acknowledged write left.
 */
export class MixedLoad {
  readonly items = new Map<number, ItemRecord>();
  readonly figures: LoadFigures = {
    requests: 0,
    acknowledged: 0,
    conflictAnswers: 0,
    unavailable: 0,
    refused: 0,
    unexpected: [],
    acknowledgedAfterKill: {},
  };
  private killed = false;

  constructor(private readonly target: LoadTarget) {}

  markKill(): void {
    this.killed = true;
  }

  /** Runs one worker on `client` until `until` (Date.now()). */
  async worker(client: InstanceClient, until: number): Promise<void> {
    const mine: number[] = [];
    while (Date.now() < until) {
      const roll = Math.random();
      if (mine.length === 0 || roll < 0.45) {
        const qty = 1 + Math.floor(Math.random() * 5);
        const res = await client.post('/lineitem', {
          order_number: pick(this.target.orders),
          product_number: pick(this.target.products),
          qty_ordered: qty,
        });
        if (this.settle(client, res, 201)) {
          const id = insertedId(res);
          this.items.set(id, { qty, live: true, uncertain: false });
          mine.push(id);
        }
      } else if (roll < 0.75) {
        const id = pick(mine);
        const qty = 1 + Math.floor(Math.random() * 9);
        const res = await client.put(`/lineitem/${id}`, { '@metadata': { checksum: 'override' }, qty_ordered: qty });
        const item = this.items.get(id)!;
        if (this.settle(client, res, 200)) item.qty = qty;
        else if (isUnknownOutcome(res)) this.forget(mine, id);
      } else {
        const id = pick(mine);
        const res = await client.delete(`/lineitem/${id}?checksum=override`);
        const item = this.items.get(id)!;
        if (this.settle(client, res, 200)) {
          item.live = false;
          mine.splice(mine.indexOf(id), 1);
        } else if (isUnknownOutcome(res)) this.forget(mine, id);
      }
    }
  }

  /** Counts the answer; true when it acknowledged the write. */
  private settle(client: InstanceClient, res: Answer, ok: number): boolean {
    this.figures.requests += 1;
    if (res.status === ok) {
      this.figures.acknowledged += 1;
      if (this.killed) this.figures.acknowledgedAfterKill[client.name] = (this.figures.acknowledgedAfterKill[client.name] ?? 0) + 1;
      return true;
    }
    if (res.status === 409 && res.body.errorCode === 4093) this.figures.conflictAnswers += 1;
    else if (isUnknownOutcome(res)) this.figures.unavailable += 1;
    else if (res.status === 422) this.figures.refused += 1;
    else this.figures.unexpected.push(`${client.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return false;
  }

  private forget(mine: number[], id: number): void {
    this.items.get(id)!.uncertain = true;
    mine.splice(mine.indexOf(id), 1);
  }
}

function isUnknownOutcome(res: Answer): boolean {
  return res.status === 0 || (res.status === 503 && res.body.errorCode === 5030);
}

/** The new line item's key, from the transaction summary of a 201. */
function insertedId(res: Answer): number {
  const summary = res.body.txsummary as Array<Record<string, unknown> & { '@metadata': { resource: string; verb: string } }>;
  const row = summary.find((r) => r['@metadata'].verb === 'INSERT' && typeof r.lineitem_id === 'number');
  if (!row) throw new Error(`no inserted line item in ${JSON.stringify(res.body).slice(0, 300)}`);
  return row.lineitem_id as number;
}
