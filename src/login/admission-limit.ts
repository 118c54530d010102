/**
 * Lets at most `max` tasks be in progress at once and turns the next one away at the door:
 * unlike ConcurrencyLimit nothing waits, so the waiting behind a slow resource (bcrypt) has a
 * bound, and whoever is turned away is told at once instead of after everyone before them.
 */
export class AdmissionLimit {
  private inside = 0;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`an admission limit must be a positive integer, not ${max}`);
  }

  /** Tasks in progress now. */
  get size(): number {
    return this.inside;
  }

  /** Runs `task` when fewer than `max` are in progress; otherwise throws `refusal()` without running it. */
  async run<T>(task: () => Promise<T>, refusal: () => Error): Promise<T> {
    if (this.inside >= this.max) throw refusal();
    this.inside += 1;
    try {
      return await task();
    } finally {
      this.inside -= 1;
    }
  }
}
