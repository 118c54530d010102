import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { redactUrl } from './url-redaction.js';

const REQUEST_ID = Symbol('tesseraRequestId');
const SAFE_INCOMING_ID = /^[A-Za-z0-9._:-]{1,100}$/;

type Tagged = IncomingMessage & { [REQUEST_ID]?: string };

/** The raw Node request behind an Express or Fastify request object. */
export function rawRequestOf(request: unknown): IncomingMessage {
  const r = request as { raw?: IncomingMessage };
  return (r.raw ?? request) as IncomingMessage;
}

export function requestIdOf(request: unknown): string | undefined {
  return (rawRequestOf(request) as Tagged)[REQUEST_ID];
}

/** Replaces the value of an `auth` query parameter, however its name is spelled, so keys never reach a log. */
export { redactUrl } from './url-redaction.js';

/**
 * Runs first on every request, on both HTTP adapters: gives it a request id (a safe
 * incoming X-Request-Id is kept), sets the X-Request-Id response header, and logs one
 * line when the response is finished.
 */
export function trackRequest(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_INCOMING_ID.test(incoming) ? incoming : randomUUID();
  (req as Tagged)[REQUEST_ID] = id;
  // Lower case, like every header Tessera sets: Node lower-cases each name it is given, and
  // a mixed-case one costs a new string per request (about half a microsecond each).
  res.setHeader('x-request-id', id);
  // The request line is logged at info: below that level, skip its listener and clock entirely.
  if (!logger.isLevelEnabled('info')) return;
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    logger.info(
      {
        requestId: id,
        method: req.method,
        path: redactUrl(req.url ?? ''),
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      },
      'request',
    );
  });
}

/**
 * The scheme and host the client used, e.g. `https://api.example.com`. Forwarded headers
 * count only when the service is configured to trust its proxy.
 */
export function requestOrigin(req: IncomingMessage, trustProxy: boolean): string {
  const first = (value: string | string[] | undefined): string | undefined =>
    (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  let scheme = encrypted ? 'https' : 'http';
  let host = first(req.headers.host) ?? 'localhost';
  if (trustProxy) {
    const proto = first(req.headers['x-forwarded-proto']);
    if (proto === 'http' || proto === 'https') scheme = proto;
    host = first(req.headers['x-forwarded-host']) ?? host;
  }
  if (!/^[A-Za-z0-9.\-:[\]]+$/.test(host)) host = 'localhost';
  return `${scheme}://${host}`;
}

/**
 * The absolute URL of the API base a request under `rest/:account/:project/:version` was
 * addressed to, e.g. `https://api.example.com/rest/default/demo/v1`.
 */
export function apiBaseUrl(request: unknown, trustProxy: boolean): string {
  const { account, project, version } = (request as { params: Record<string, string> }).params;
  const segments = [account, project, version].map((segment) => encodeURIComponent(segment ?? ''));
  return `${requestOrigin(rawRequestOf(request), trustProxy)}/rest/${segments.join('/')}`;
}

/**
 * The last segment of the request's path exactly as the client sent it, still URL-encoded
 * (a trailing slash ignored). Both routers decode path parameters, after which a `~` the
 * client encoded inside a composite-key part can no longer be told from the separator.
 */
export function rawLastPathSegment(request: unknown): string {
  const path = (rawRequestOf(request).url ?? '/').replace(/[?#][\s\S]*$/, '').replace(/\/$/, '');
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The query parameters as the client wrote them, from the raw URL: both adapters agree, and
 * names such as `enablePasswordChange!` arrive exactly as sent.
 */
export function queryParamsOf(request: unknown): URLSearchParams {
  const url = rawRequestOf(request).url ?? '/';
  const at = url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
}
