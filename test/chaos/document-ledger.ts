/**
 * What the chaos load wrote and what it was told, and the check of the stored rows against it.
 *
 * The load writes demo documents whose rows it can find again without knowing their keys: an
 * order carries a tag of its own in `notes` (`chaos 3-17`), a customer it creates is named
 * `Chaos 3-17`. Each entity (an order with its line items, or a customer) has a state, written
 * as one canonical string. A write changes one or more entities from a state `before` to a state
 * `after`. Afterwards each entity must be in the state its last acknowledged write left, or,
 * when a later write got no answer, in that write's `before` or `after`; and a write that got no
 * answer must be whole: all of its entities before, or all after.
 */

/** The state of an entity that is not stored (not yet written, or deleted). */
export const ABSENT = 'absent';

export interface OrderItem {
  /** The line item's key, once the service said it (absent for an item not yet written). */
  id?: number;
  product: number;
  qty: number;
}

/** An order as the load wrote it: its customer, whether it is paid, its line items. */
export interface OrderDocument {
  customer: string;
  paid: boolean;
  items: OrderItem[];
}

/** An order's state: customer, paid, and its line items as a sorted list of product×qty. */
export function orderState(order: OrderDocument): string {
  const items = order.items.map((i) => `${i.product}x${i.qty}`).sort();
  return `${order.customer}|${order.paid ? 'paid' : 'unpaid'}|${items.join(',')}`;
}

/** The ledger key of an order (by its tag) and of a customer (by its name). */
export const orderKey = (tag: string): string => `order ${tag}`;
export const customerKey = (name: string): string => `customer ${name}`;
/** The state of a customer the load created (credit limit and all). */
export const CUSTOMER_PRESENT = 'present';

export interface Change {
  key: string;
  before: string;
  after: string;
}

/**
 * acknowledged: answered 2xx. refused: a definite answer that nothing was written (4xx).
 * unanswered: no answer (the process died, or the connection did), or a 5xx: either outcome.
 */
export type Outcome = 'acknowledged' | 'refused' | 'unanswered';

interface Write {
  label: string;
  changes: Change[];
  outcome: Outcome;
}

export interface LedgerVerdict {
  writes: { sent: number; acknowledged: number; refused: number; unanswered: number };
  /** Acknowledged writes whose effect is stored (or was built on by a later acknowledged write). */
  found: number;
  /** Acknowledged writes whose effect is not what is stored. */
  missing: number;
  /** Writes without an answer, by what was stored: all of their changes, none, or a part (a broken write). */
  unanswered: { whole: number; absent: number; halfWritten: number };
  /** Entities stored in a state no answer allows (each named in `problems`). */
  wrongStates: number;
  problems: string[];
}

/** The ledger all the load's clients write into; each entity belongs to one client, which acts on it one write at a time. */
export class DocumentLedger {
  private readonly writes: Write[] = [];

  record(label: string, changes: Change[], outcome: Outcome): void {
    this.writes.push({ label, changes, outcome });
  }

  get sent(): number {
    return this.writes.length;
  }

  /** Compares `stored` (every tagged entity found in the database, by key) with what the answers allow. */
  verify(stored: Map<string, string>): LedgerVerdict {
    const problems: string[] = [];
    const allowed = new Map<string, string[]>();
    /** The last acknowledged write on each key. */
    const lastAcknowledged = new Map<string, Write>();
    for (const write of this.writes) {
      for (const change of write.changes) {
        const now = allowed.get(change.key) ?? [ABSENT];
        if (!now.includes(change.before) || now.length > 1)
          problems.push(
            `${write.label}: the load wrote on ${change.key} from ${change.before}, which it did not know for sure (a load bug)`,
          );
        if (write.outcome === 'acknowledged') {
          allowed.set(change.key, [change.after]);
          lastAcknowledged.set(change.key, write);
        } else if (write.outcome === 'unanswered') allowed.set(change.key, [change.before, change.after]);
        else allowed.set(change.key, now);
      }
    }
    const missingWrites = new Set<Write>();
    let wrongStates = 0;
    for (const [key, states] of allowed) {
      const state = stored.get(key) ?? ABSENT;
      if (states.includes(state)) continue;
      wrongStates += 1;
      problems.push(`${key}: stored ${state}; the answers allow only ${states.join(' or ')}`);
      const acknowledged = lastAcknowledged.get(key);
      if (acknowledged) missingWrites.add(acknowledged);
    }
    for (const key of stored.keys())
      if (!allowed.has(key)) {
        wrongStates += 1;
        problems.push(`${key}: stored ${stored.get(key)!}, but the load never wrote it`);
      }

    const unanswered = { whole: 0, absent: 0, halfWritten: 0 };
    for (const write of this.writes.filter((w) => w.outcome === 'unanswered')) {
      const states = write.changes.map((c) => stored.get(c.key) ?? ABSENT);
      if (write.changes.every((c, i) => states[i] === c.after)) unanswered.whole += 1;
      else if (write.changes.every((c, i) => states[i] === c.before)) unanswered.absent += 1;
      else {
        unanswered.halfWritten += 1;
        problems.push(
          `${write.label} (no answer) is half-written: ${write.changes.map((c, i) => `${c.key} stored ${states[i]!}, before ${c.before}, after ${c.after}`).join('; ')}`,
        );
      }
    }
    const count = (outcome: Outcome): number => this.writes.filter((w) => w.outcome === outcome).length;
    const acknowledged = count('acknowledged');
    return {
      writes: { sent: this.writes.length, acknowledged, refused: count('refused'), unanswered: count('unanswered') },
      found: acknowledged - missingWrites.size,
      missing: missingWrites.size,
      unanswered,
      wrongStates,
      problems,
    };
  }
}
