/** Marks a case-folded name that two different values hold. */
const AMBIGUOUS = Symbol('ambiguous');

/**
 * Values by name, found by the exact name first, else by the one name that matches ignoring
 * case. PostgreSQL and MariaDB on Linux keep `Customer` and `customer` apart: both are found by
 * their exact names, and no third spelling (`CUSTOMER`) finds either.
 */
export class NameLookup<T> {
  private readonly exact = new Map<string, T>();
  private readonly folded = new Map<string, T | typeof AMBIGUOUS>();

  set(name: string, value: T): void {
    this.exact.set(name, value);
    const key = name.toLowerCase();
    const held = this.folded.get(key);
    this.folded.set(key, held === undefined || held === value ? value : AMBIGUOUS);
  }

  get(name: string): T | undefined {
    const found = this.exact.get(name) ?? this.folded.get(name.toLowerCase());
    return found === AMBIGUOUS ? undefined : found;
  }

  /** Whether `name` matches, ignoring case, names of two different values (and so finds neither unless exact). */
  isAmbiguous(name: string): boolean {
    return this.folded.get(name.toLowerCase()) === AMBIGUOUS;
  }

  /** Whether any name matches `name` ignoring case. */
  hasFolded(name: string): boolean {
    return this.folded.has(name.toLowerCase());
  }
}
