import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';

/** The paths a page on another origin may call: the data API and the admin API (any case, as both routers match). */
const CORS_SCOPE = /^\/(?:rest|admin\/v1)(?:[/?]|$)/i;

/** Every method the API serves, and the preflight's own. */
export const CORS_ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** The request headers the API reads beyond those a browser sends unasked. */
export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, If-Match, If-None-Match, X-Request-Id';
/** Response headers a script may read beyond the safelisted ones: the row's checksum, the request id, when to retry. */
export const CORS_EXPOSE_HEADERS = 'ETag, X-Request-Id, Retry-After';
/** How long a browser may reuse a preflight's answer, in seconds: short enough that a changed CORS_ORIGINS shows soon. */
export const CORS_MAX_AGE_SECONDS = 600;

/** What a request is, as far as CORS goes (see `CorsPolicy.admit`). */
export type CorsVerdict =
  /** Not a preflight: the framework answers it, with CORS headers when its origin is allowed. */
  | 'pass'
  /** A preflight from an allowed origin to the API: `answerPreflight` answers it. */
  | 'preflight'
  /** A preflight Tessera does not serve: the origin is not listed, the path is not the API's, or CORS is off. */
  | 'refused-preflight';

/** The 404 a preflight Tessera does not serve gets, the same whether CORS is off or the origin is not listed. */
export function preflightRefusal(): ApiError {
  return new ApiError(
    ErrorCode.NOT_FOUND,
    'No cross-origin access: this service does not answer browsers calling it from that origin (see CORS_ORIGINS).',
  );
}

/**
 * CORS for the API (`/rest/...` and `/admin/v1/...`), decided before either HTTP framework sees
 * the request, so Express and Fastify answer alike. Only the origins of CORS_ORIGINS are ever
 * named, each exactly as the browser sent it, with `Vary: Origin`; never `*`, and never
 * `Access-Control-Allow-Credentials`: Tessera's tokens travel in the Authorization header, which
 * a script sets itself, never in cookies a browser would attach on its own.
 */
export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.origins = new Set(origins);
  }

  /**
   * Sets the CORS headers of an actual answer on `res` (before the framework writes it, so error
   * answers carry them too), and says whether the request is a preflight and whether it is served.
   * With CORS_ORIGINS unset, only preflights pay for more than a comparison.
   */
  admit(req: IncomingMessage, res: ServerResponse): CorsVerdict {
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (this.origins.size === 0) return preflight ? 'refused-preflight' : 'pass';
    const url = req.url ?? '/';
    if (!CORS_SCOPE.test(url)) return preflight ? 'refused-preflight' : 'pass';
    // The answer depends on the Origin header, whoever asks: a cache must not give one origin's answer to another.
    res.setHeader('vary', 'Origin');
    const origin = req.headers.origin;
    if (origin === undefined || !this.origins.has(origin)) return preflight ? 'refused-preflight' : 'pass';
    res.setHeader('access-control-allow-origin', origin);
    if (preflight) return 'preflight';
    res.setHeader('access-control-expose-headers', CORS_EXPOSE_HEADERS);
    return 'pass';
  }

  /** The answer to a preflight `admit` called served: 204 with what the API accepts. */
  static answerPreflight(res: ServerResponse): void {
    res.setHeader('access-control-allow-methods', CORS_ALLOW_METHODS);
    res.setHeader('access-control-allow-headers', CORS_ALLOW_HEADERS);
    res.setHeader('access-control-max-age', String(CORS_MAX_AGE_SECONDS));
    res.statusCode = 204;
    res.end();
  }
}
