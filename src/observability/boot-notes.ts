/**
 * What the boot banner tells the operator that only the application learns while it starts:
 * the first admin's generated password, when one was made (read once by main.ts, then forgotten).
 */
export class BootNotes {
  private generated?: { username: string; password: string };

  generatedAdmin(username: string, password: string): void {
    this.generated = { username, password };
  }

  /** The generated first admin, once: later calls answer undefined. */
  takeGeneratedAdmin(): { username: string; password: string } | undefined {
    const generated = this.generated;
    this.generated = undefined;
    return generated;
  }
}
