import { createRequire } from 'node:module';
import { parse as legacyUrlParse } from 'node:url';

/** The parts of the LAC Node SDK (npm caliveapicreator, no types of its own) the suites use. */
type Filters = Record<string, string | number> | string;
type Headers = Record<string, string>;
export interface LacEndpoint {
  get(filters?: Filters, headers?: Headers): PromiseLike<unknown>;
  post(body: unknown, filters?: Filters, headers?: Headers): PromiseLike<unknown>;
  put(body: unknown, filters?: Filters, headers?: Headers): PromiseLike<unknown>;
  /** Sends `?checksum=<body['@metadata'].checksum>`, no body. */
  del(body: { '@metadata': { checksum?: string } }, filters?: Record<string, string>, headers?: Headers): PromiseLike<unknown>;
}
export interface LacApi {
  apiKey: string | null | undefined;
  /** Settles when the login (or the given key) is in place. */
  connection: PromiseLike<void>;
  endpoint(path: string): LacEndpoint;
}
interface LacSdk {
  /** With a password: POSTs the login to <url>/@authentication; without: `keyOrUser` is the API key. */
  connect(url: string, keyOrUser: string, password?: string): LacApi;
}

const whatwgUrl = globalThis.URL;
export const lacSdk = createRequire(import.meta.url)('caliveapicreator') as LacSdk;
/*
 * Loading the SDK assigns the global `URL` (an undeclared variable in APICreatorSDK.js) to node:url,
 * and the SDK later calls `URL.parse(...)` for node:url's legacy parse: every `new URL(...)` in the
 * process breaks (any application using the SDK has the same problem). Put the WHATWG URL back, with
 * that legacy `parse`, so that both the SDK and the rest of the process work.
 */
if (globalThis.URL !== whatwgUrl) {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the SDK calls the legacy parse, as it did with node:url
  (globalThis as { URL: unknown }).URL = Object.assign(class extends whatwgUrl {}, { parse: legacyUrlParse });
}

/**
 * The SDK's promises stay pending when its login fails, and reject with the bare error body:
 * this gives a call `limitMs` to settle and turns a rejection into an Error naming the answer.
 */
export async function settled<T>(call: PromiseLike<T>, what: string, limitMs = 10_000): Promise<T> {
  let limit: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    limit = setTimeout(() => reject(new Error(`${what}: no answer within ${limitMs} ms`)), limitMs);
  });
  try {
    return await Promise.race([
      Promise.resolve(call).catch((answer: unknown) => {
        throw new Error(`${what} was refused: ${JSON.stringify(answer)}`);
      }),
      late,
    ]);
  } finally {
    clearTimeout(limit);
  }
}
