/**
 * Runs at most `limit` tasks at once; the others wait their turn, first come first served.
 * For CPU-bound work on libuv's thread pool (bcrypt), where running more at once than there
 * are cores only takes CPU time from the event loop without finishing any sooner.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`a concurrency limit must be a positive integer, not ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((turn) => this.waiting.push(turn));
    else this.running += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
      if (next) next();
      else this.running -= 1;
    }
  }
}
