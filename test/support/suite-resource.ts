/** A resource the suites of this test file started and have not stopped yet. */
interface Running {
  stop(): Promise<void>;
}

/** Latest last. Jest loads this module once per test file, so the stack is the file's own. */
const running: Running[] = [];

/**
 * Starts something for the enclosing suite (in a `beforeAll`) and stops it after the suite (in an
 * `afterAll`), but only if it started: when `start` fails, Jest reports that failure and there is
 * nothing to stop, rather than a TypeError from a cleanup that reached for a value never set.
 * Once started, it goes to `ready`, which keeps it in the suite's variable and does the rest of the
 * suite's setup; it is stopped even when `ready` fails.
 *
 * ```ts
 * let slapd: Slapd;
 * suiteResource(startSlapd, (s) => s.stop(), (s) => { slapd = s; });
 * ```
 *
 * Resources stop in the reverse order of their start, so one that uses another (a query runner of
 * an app's data source, an app configured with an identity provider's URL) stops first. Jest runs
 * a suite's `afterAll` hooks in the order they were declared, so the first of them stops, latest
 * first, everything started after its own resource, and the later hooks find theirs stopped.
 */
export function suiteResource<T>(
  start: () => Promise<T>,
  stop: (resource: T) => Promise<void>,
  ready: (resource: T) => void | Promise<void>,
  timeout?: number,
): void {
  let own: Running | undefined;
  beforeAll(async () => {
    const resource = await start();
    own = { stop: () => stop(resource) };
    running.push(own);
    await ready(resource);
  }, timeout);
  afterAll(async () => {
    const at = own ? running.indexOf(own) : -1;
    if (at < 0) return;
    const failures: unknown[] = [];
    for (const resource of running.splice(at).reverse()) {
      await resource.stop().catch((error: unknown) => failures.push(error));
    }
    if (failures.length > 0) throw failures[0];
  });
}
