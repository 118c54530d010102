import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ApiError } from '../common/api-error.js';
import { rawRequestOf } from '../common/request-slot.js';
import { ErrorCode } from '../common/error-codes.js';
import { isValidHost } from './host-header.js';
import { decodeQueryComponent, deleteAuthParams, redactUrl } from './url-redaction.js';

const REQUEST_ID = Symbol('tesseraRequestId');
const SAFE_INCOMING_ID = /^[A-Za-z0-9._:-]{1,100}$/;

type Tagged = IncomingMessage & { [REQUEST_ID]?: string };

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

/** What decides the origin of the links Tessera hands out (the `http` part of AppConfig). */
export interface OriginSettings {
  trustProxy: boolean;
  publicUrl?: string;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
}

/** The first X-Forwarded-Host a request carries (the proxy nearest the client names it first), or undefined. */
export function forwardedHostOf(req: IncomingMessage): string | undefined {
  const forwarded = firstValue(req.headers['x-forwarded-host']);
  return forwarded === '' ? undefined : forwarded;
}

/**
 * The host a request's links would name: X-Forwarded-Host when the proxy is trusted and
 * sends one, else the Host header; undefined when the request has neither (HTTP/1.0).
 */
export function requestHost(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? forwardedHostOf(req) : undefined;
  if (forwarded !== undefined) return forwarded;
  const host = req.headers.host;
  return host === undefined ? undefined : host.trim();
}

/** The address and port the request came in on, for an HTTP/1.0 request without a Host header. */
function localOrigin(req: IncomingMessage): string {
  // Node types the socket as always there; it is null once the connection has closed.
  const socket = req.socket as IncomingMessage['socket'] | null;
  const address = socket?.localAddress ?? '127.0.0.1';
  const host = address.includes(':') && !address.startsWith('::ffff:') ? `[${address}]` : address.replace(/^::ffff:/, '');
  return `${host}:${socket?.localPort ?? 80}`;
}

/**
 * The origin every link of a response starts with, e.g. `https://api.example.com`: PUBLIC_URL
 * when it is set (with its path prefix), else the scheme and host the client used. Forwarded
 * headers count only when the service is configured to trust its proxy. The early request
 * hook has already refused a request whose host is not valid or not answered (HostPolicy); this
 * refuses an invalid one again rather than ever build a link from it.
 */
export function requestOrigin(req: IncomingMessage, settings: OriginSettings): string {
  if (settings.publicUrl !== undefined) return settings.publicUrl;
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  let scheme = encrypted ? 'https' : 'http';
  if (settings.trustProxy) {
    const proto = firstValue(req.headers['x-forwarded-proto']);
    if (proto === 'http' || proto === 'https') scheme = proto;
  }
  const host = requestHost(req, settings.trustProxy) ?? localOrigin(req);
  if (!isValidHost(host)) throw new ApiError(ErrorCode.BAD_REQUEST, 'The Host header is not a valid host[:port].');
  return `${scheme}://${host}`;
}

/**
 * The absolute URL of the API base a request under `rest/:account/:project/:version` was
 * addressed to, e.g. `https://api.example.com/rest/default/demo/v1`.
 */
export function apiBaseUrl(request: unknown, settings: OriginSettings): string {
  const { account, project, version } = (request as { params: Record<string, string> }).params;
  const segments = [account, project, version].map((segment) => encodeURIComponent(segment ?? ''));
  return `${requestOrigin(rawRequestOf(request), settings)}/rest/${segments.join('/')}`;
}

/**
 * The request's absolute URL without any parameter that may carry an auth key (however spelled): what
 * next_batch links are built from. The path is appended to the origin, not resolved against it, so
 * PUBLIC_URL's path prefix stays.
 */
export function requestUrlWithoutAuth(request: unknown, settings: OriginSettings): URL {
  const raw = rawRequestOf(request);
  const url = new URL(`${requestOrigin(raw, settings)}${raw.url ?? '/'}`);
  deleteAuthParams(url.searchParams);
  return url;
}

/** A `next_batch` link: `url` (a request's URL, see requestUrlWithoutAuth; changed in place) with `offset` set. */
export function nextBatchLink(url: URL, offset: number): string {
  url.searchParams.set('offset', String(offset));
  return url.toString();
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

/**
 * The value of the first query parameter whose name is exactly `name` as the client wrote it,
 * decoded as URLSearchParams decodes values (`''` for a bare `name` or `name=`); undefined when
 * there is none. The name is not decoded, so `%61uth` is not `auth`, and the adapters' parsers
 * (which decode names, and may read brackets) play no part. The raw URL is scanned in place: only
 * the value found is copied.
 */
export function rawQueryValue(request: unknown, name: string): string | undefined {
  const url = rawRequestOf(request).url ?? '';
  for (let start = url.indexOf('?') + 1; start > 0;) {
    const amp = url.indexOf('&', start);
    const end = amp < 0 ? url.length : amp;
    if (url.startsWith(name, start)) {
      const after = start + name.length;
      if (after === end) return '';
      if (url.charCodeAt(after) === 0x3d /* = */) return decodeQueryComponent(url.slice(after + 1, end));
    }
    start = amp + 1;
  }
  return undefined;
}
