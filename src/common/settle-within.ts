/** How a call into code the project or a provider wrote ended (see `settleWithin`). */
export type Settled<T> = { status: 'ok'; value: T } | { status: 'error'; error: unknown } | { status: 'timeout' };

/**
 * Runs code Tessera did not write (a provider, a project extension) and waits at most `timeoutMs` for it. A synchronous throw, a rejection
 * and a promise that never settles all come back as values, so no such code can crash a
 * request or hold it open. (Code that blocks the event loop cannot be interrupted from here.)
 * Code that answers synchronously is answered without a timer: there is nothing left to wait for.
 */
export function settleWithin<T>(timeoutMs: number, work: () => T | PromiseLike<T>): Promise<Settled<Awaited<T>>> {
  try {
    const answer = work();
    if (!isThenable(answer)) return Promise.resolve({ status: 'ok', value: answer as Awaited<T> });
    return raceTimeout(timeoutMs, answer);
  } catch (error) {
    return Promise.resolve({ status: 'error', error }); // a synchronous throw, or a `then` that throws when read
  }
}

async function raceTimeout<T>(timeoutMs: number, answer: PromiseLike<T>): Promise<Settled<Awaited<T>>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ status: 'timeout' }>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'timeout' }), timeoutMs);
  });
  const run = (async (): Promise<Settled<Awaited<T>>> => {
    try {
      return { status: 'ok', value: await answer };
    } catch (error) {
      return { status: 'error', error };
    }
  })();
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `value` is a promise or anything else `await` would wait for (it has a `then` method). */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as PromiseLike<T>).then === 'function'
  );
}

/** The message of whatever such code threw, without trusting it to be an Error of this realm. */
export function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    const { name, message } = error as { name?: unknown; message: string };
    return typeof name === 'string' && name !== 'Error' ? `${name}: ${message}` : message;
  }
  return String(error);
}
