/** One login's place in the lines: the lines it stands in, and how to wake it while it waits. */
export interface Ticket {
  readonly keys: readonly string[];
  wake?: () => void;
  /** Woken while it was trying (not waiting): its next wait ends at once, so the slot that came free is not missed. */
  rung?: boolean;
}

/**
 * The logins of this process on an account's or an address's slots, one line per `scope:subject`, first
 * come first served. A login stands in the lines of its account and its address from the moment it comes,
 * and tries for a slot only at the head of both: a newcomer queues behind the logins already there instead of
 * taking the slot that came free, and their statements on the same counter rows (which the database runs one
 * at a time anyway) go one after another. The head that hears "busy" waits in its place until a slot comes free
 * here (`wakeHeads`) or `pollMs` passes (a slot freed by another instance wakes nobody here). When it leaves,
 * admitted or not, the next in each of its lines is woken to try.
 */
export class TurnLines {
  private readonly lines = new Map<string, Ticket[]>();

  constructor(private readonly pollMs: number) {}

  /** A newcomer's ticket, at the end of the line of each key. */
  enter(keys: readonly string[]): Ticket {
    const ticket: Ticket = { keys: [...new Set(keys)] };
    for (const key of ticket.keys) {
      const line = this.lines.get(key) ?? [];
      this.lines.set(key, line);
      line.push(ticket);
    }
    return ticket;
  }

  /** Whether the ticket is at the head of all its lines: its turn to try. */
  atHead(ticket: Ticket): boolean {
    return ticket.keys.every((key) => this.lines.get(key)?.[0] === ticket);
  }

  /**
   * Waits in place until woken, or until `pollMs` passes for a head that heard "busy" (`poll`); never past
   * `giveUpAt`, nor once `gone` aborts.
   */
  wait(ticket: Ticket, poll: boolean, giveUpAt: number, gone: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        gone?.removeEventListener('abort', wake);
        ticket.wake = undefined;
        resolve();
      };
      const left = giveUpAt - Date.now();
      const timer = setTimeout(wake, Math.max(1, poll ? Math.min(this.pollMs, left) : left));
      gone?.addEventListener('abort', wake, { once: true });
      ticket.wake = wake;
      if (ticket.rung || gone?.aborted) wake();
      ticket.rung = false;
    });
  }

  /** Out of its lines (admitted, refused or gone); whoever is now at the head of one of them is woken to try. */
  leave(ticket: Ticket): void {
    for (const key of ticket.keys) {
      const line = this.lines.get(key);
      const at = line?.indexOf(ticket) ?? -1;
      if (!line || at < 0) continue;
      line.splice(at, 1);
      if (line.length === 0) this.lines.delete(key);
      else if (at === 0) line[0]!.wake?.();
    }
  }

  /** A slot of these keys came free here: the head of their lines tries again (at once if it is trying now). */
  wakeHeads(keys: readonly string[]): void {
    for (const key of keys) {
      const head = this.lines.get(key)?.[0];
      if (!head || !this.atHead(head)) continue;
      if (head.wake) head.wake();
      else head.rung = true;
    }
  }

  /** Everyone looks again (the service is stopping: each then gives up). */
  wakeAll(): void {
    for (const line of [...this.lines.values()]) for (const ticket of [...line]) ticket.wake?.();
  }
}
