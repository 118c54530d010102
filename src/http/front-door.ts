import { randomUUID } from 'node:crypto';
import { maxHeaderSize as nodeMaxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { ApiError } from '../common/api-error.js';
import { CorsPolicy, preflightRefusal } from './cors.js';
import { ErrorCode } from '../common/error-codes.js';
import { rawErrorResponse, sendErrorResponse } from './error-response.js';
import { HostPolicy, type HostSettings } from './host-policy.js';
import { trackRequest } from './request-context.js';
import type { SecurityHeaders } from './security-headers.js';

export interface FrontDoorSettings extends HostSettings {
  maxUrlBytes: number;
  /** CORS_ORIGINS (see CorsPolicy); empty: no CORS answers. */
  corsOrigins: readonly string[];
}

export interface FrontDoorParts {
  settings: FrontDoorSettings;
  logger: Logger;
  securityHeaders: SecurityHeaders;
}

/** A "%" not followed by an ASCII byte's two hex digits: a truncated escape or a UTF-8 byte. */
const SUSPECT_ESCAPE = /%(?![0-7][0-9A-Fa-f])/;

/**
 * Why a request is refused before either framework routes it, or undefined. Checked here,
 * once, so Express and Fastify answer the same input with the same status and code (their
 * routers disagree: Fastify refuses `%ff` and long parameters with answers of its own,
 * Express lets them through or not at all). `hosts` is the policy built from `settings` (once, not per request).
 */
export function earlyRefusal(req: IncomingMessage, settings: FrontDoorSettings, hosts: HostPolicy): ApiError | undefined {
  const url = req.url ?? '';
  // Node reads the request target as Latin-1: one character per byte.
  if (url.length > settings.maxUrlBytes) {
    return new ApiError(ErrorCode.URL_TOO_LONG, `The URL is longer than ${settings.maxUrlBytes} bytes.`);
  }
  // Absolute-form ("GET http://other/...") is for proxies; it would also name a host of the client's choosing.
  if (url.charCodeAt(0) !== 0x2f /* / */)
    return new ApiError(ErrorCode.BAD_REQUEST, 'The request target must be a path starting with "/".');
  const host = hosts.problem(req);
  if (host !== undefined) return new ApiError(ErrorCode.BAD_REQUEST, host);
  // The path and the query: Express's query parser and Fastify's read a broken escape
  // differently. Only an escape that is not plain ASCII (%00-%7F) can be broken, so only
  // those URLs pay for decoding (about a microsecond).
  if (SUSPECT_ESCAPE.test(url)) {
    try {
      decodeURIComponent(url);
    } catch {
      return new ApiError(ErrorCode.BAD_REQUEST, 'The URL holds a malformed percent-encoding.');
    }
  }
  return undefined;
}

/** Whether the request line (not the headers after it) is what made a request too large for Node's parser. */
export function requestLineTooLong(packet: Buffer | undefined, maxUrlBytes: number): boolean {
  if (!packet) return false;
  const text = packet.toString('latin1');
  const end = text.indexOf('\n');
  // No line end in what overflowed: still inside the request line (or one enormous header, which only a client
  // that sends its request a few bytes at a time could make look the same).
  if (end < 0) return true;
  const line = text.slice(0, end).replace(/\r$/, '');
  const method = line.slice(0, line.indexOf(' '));
  const version = line.lastIndexOf(' ');
  // A whole request line: method, target, version.
  if (version > method.length && METHOD.test(method)) return version - method.length - 1 > maxUrlBytes;
  // The tail of a request line that began in an earlier packet: it alone overflowed the limit.
  return / HTTP\/\d\.\d$/.test(line);
}

const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

type ParserError = Error & { code?: string; rawPacket?: Buffer };

/** What Tessera answers to a request Node's HTTP parser refused. */
export function clientErrorAnswer(error: ParserError, maxUrlBytes: number): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineTooLong(error.rawPacket, maxUrlBytes)
        ? new ApiError(ErrorCode.URL_TOO_LONG, `The URL is longer than ${maxUrlBytes} bytes.`)
        : new ApiError(ErrorCode.BAD_REQUEST, 'The request headers are too large.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(ErrorCode.BODY_TOO_LARGE, 'The request body is too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(ErrorCode.BAD_REQUEST, 'The request did not arrive in time.');
    case 'HPE_INVALID_METHOD':
      return new ApiError(ErrorCode.BAD_REQUEST, 'The request method is not an HTTP method.');
    default:
      return new ApiError(ErrorCode.BAD_REQUEST, 'The request is not valid HTTP.');
  }
}

/** How long a connection refused by the parser may keep sending before it is cut. */
const LINGER_MS = 2000;
const answered = new WeakSet<Socket>();
const drains = new WeakMap<Server, () => void>();

/** The answer to a connection's latest request, which draining must reach even while it waits its turn. */
const LATEST_RESPONSE = Symbol('latestResponse');
type TrackedSocket = Socket & { [LATEST_RESPONSE]?: ServerResponse };

function answerClientError(error: ParserError, socket: Socket, parts: FrontDoorParts): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  // Never write into the middle of a response already on its way (pipelining), nor to a peer that is gone.
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const answer = clientErrorAnswer(error, parts.settings.maxUrlBytes);
  const requestId = randomUUID();
  parts.logger.info(
    { requestId, status: answer.statusCode, errorCode: answer.errorCode, reason: error.code },
    'request refused by the HTTP parser',
  );
  // Half-close and keep reading what the client still sends: closing with unread data would
  // reset the connection, and the client could lose the answer.
  socket.end(rawErrorResponse(answer, parts.securityHeaders, requestId));
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
}

/**
 * Puts Tessera's own checks in front of the framework on the HTTP server itself, for both
 * adapters: URL length (MAX_URL_BYTES), request-target form, Host (HostPolicy) and percent-encoding are
 * refused with the error envelope before any routing; requests Node's parser cannot read
 * (oversized request line or headers, unknown methods, broken syntax) get the envelope too
 * instead of Node's bare answer. CORS is decided here too (see CorsPolicy): preflights are answered
 * (or refused with a 404 envelope) and actual answers to allowed origins get their headers, the
 * refusals above included. While the server drains, every answer closes its connection.
 */
export function installFrontDoor(server: Server, parts: FrontDoorParts): void {
  const { settings, logger, securityHeaders } = parts;
  const cors = new CorsPolicy(settings.corsOrigins);
  const hosts = new HostPolicy(settings);
  // Node's own answer to a missing Host is an empty 400; the host policy gives the envelope instead.
  const options = server as Server & { requireHostHeader: boolean; maxHeaderSize?: number };
  options.requireHostHeader = false;
  // Room for the longest allowed URL plus ordinary headers; Node's default otherwise. Node
  // reads both settings from the server for each new connection.
  options.maxHeaderSize = Math.max(nodeMaxHeaderSize, settings.maxUrlBytes + 8192);
  const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  let draining = false;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    (req.socket as TrackedSocket)[LATEST_RESPONSE] = res;
    const verdict = cors.admit(req, res);
    const refusal = earlyRefusal(req, settings, hosts) ?? (verdict === 'refused-preflight' ? preflightRefusal() : undefined);
    if (refusal) {
      trackRequest(logger, req, res);
      sendErrorResponse(res, refusal, securityHeaders);
      return;
    }
    if (verdict === 'preflight') {
      trackRequest(logger, req, res);
      securityHeaders.applyTo(res);
      CorsPolicy.answerPreflight(res);
      return;
    }
    for (const handler of handlers) handler.call(server, req, res);
  });
  // Fastify answers parser errors with a JSON of its own: Tessera's answer replaces it.
  server.removeAllListeners('clientError');
  server.on('clientError', (error: ParserError, socket: Socket) => answerClientError(error, socket, parts));
  // Node's own answers to these are empty 417s and closed sockets.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    trackRequest(logger, req, res);
    sendErrorResponse(res, new ApiError(ErrorCode.BAD_REQUEST, 'The only expectation served is Expect: 100-continue.'), securityHeaders);
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end(rawErrorResponse(new ApiError(ErrorCode.NOT_FOUND, 'No such resource or endpoint.'), securityHeaders, randomUUID()));
  });
  // Per connection, not per request: what draining needs to reach answers already under way.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  drains.set(server, () => {
    if (draining) return;
    draining = true;
    // An answer still being prepared closes its connection when sent, instead of leaving
    // the connection open for a next request the server will not wait for.
    // The connection's latest answer, not the one it is writing (`_httpMessage`): a request read
    // while the previous answer was still finishing waits in a queue, out of `_httpMessage`'s reach.
    for (const socket of sockets) {
      const response = (socket as TrackedSocket)[LATEST_RESPONSE];
      if (response && !response.headersSent) response.shouldKeepAlive = false;
    }
    server.closeIdleConnections();
    // A connection whose answer had already started goes idle when it ends: close it then,
    // not when the keep-alive timeout (or the client) gets round to it.
    setInterval(() => server.closeIdleConnections(), 100).unref();
  });
}

/**
 * Starts draining a server that has a front door: idle keep-alive connections close now, the
 * others as soon as their answer is sent, and answers from now on say `Connection: close`.
 */
export function drainConnections(server: Server): void {
  drains.get(server)?.();
}
