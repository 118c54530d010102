import type { ServerResponse } from 'node:http';
import helmet from 'helmet';

/** Sets helmet's headers on a response: the same on both HTTP adapters, for every request. */
export interface SecurityHeaders {
  applyTo(res: Pick<ServerResponse, 'setHeader' | 'removeHeader'>): void;
  /** The same headers as name/value pairs, lower-case names, for a response written by hand. */
  readonly entries: ReadonlyArray<readonly [string, string]>;
}

/**
 * Every API answer may carry a token (`@authentication`), rows a role may read, or an error
 * about them: no browser, proxy or CDN may keep a copy. Set with helmet's headers, so it costs
 * nothing more per request.
 */
export const NO_STORE: readonly [string, string] = ['cache-control', 'no-store'];

/**
 * helmet()'s default headers, recorded once at boot, plus `Cache-Control: no-store`. With its defaults every header is the
 * same for every request, so running helmet's chain of twelve middlewares per request (about
 * 5% of a key read's CPU time) only recomputes constants. helmet stays the one source of the
 * headers: this runs it once against a recording response, and refuses to start if it ever
 * reads the request or answers asynchronously (then the headers could differ per request).
 */
export function recordSecurityHeaders(middleware = helmet()): SecurityHeaders {
  const set: Array<[string, string | number | readonly string[]]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      // Lower case, as Fastify writes its own (see trackRequest).
      set.push([name.toLowerCase(), value]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  const request = new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`helmet read the request (${String(property)}): its headers are no longer the same for every request`);
      },
    },
  );
  const progress = { finished: false };
  middleware(request as never, recorder as never, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error('helmet reported an error while its headers were recorded');
    progress.finished = true;
  });
  if (!progress.finished) throw new Error('helmet did not finish synchronously: its headers cannot be recorded once');
  set.push([...NO_STORE]);
  return {
    entries: set.map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)] as const),
    applyTo(res) {
      for (const name of removed) res.removeHeader(name);
      for (const [name, value] of set) res.setHeader(name, value);
    },
  };
}
