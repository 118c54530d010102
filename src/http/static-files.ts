import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { Logger } from 'pino';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { sendErrorResponse } from './error-response.js';
import { trackRequest } from './request-context.js';
import type { SecurityHeaders } from './security-headers.js';
import { PROJECT_ROOT } from '../config/project-root.js';

/**
 * The browser side of Tessera, served the same on both HTTP adapters by the HTTP server itself (before either framework
 * routes, after the front door's checks): the console at /admin/ (built by `npm run build` into dist/console, and where
 * `/` sends a browser) and Swagger UI at `<api base>/@docs/ui` (from the swagger-ui-dist package). Everything else
 * passes through untouched.
 *
 * Only GET and HEAD, only names of one path segment made of `A-Z a-z 0-9 . _ -` (no traversal can be spelled), only
 * from the two folders below. The console's assets carry a hash in their names and are cached for a year; index.html,
 * Swagger UI's page and its files (whose names have no hash) are revalidated by ETag on every use.
 */
export interface StaticFilesOptions {
  /** `/rest/default/demo/v1` and the like: each served API version's base path. */
  apiBases: readonly string[];
  securityHeaders: SecurityHeaders;
  logger: Logger;
  /** Defaults to dist/console under Tessera's folder. */
  consoleDir?: string;
}

export const CONSOLE_DIR = join(PROJECT_ROOT, 'dist', 'console');
const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** What Swagger UI's page loads from the package. */
const SWAGGER_FILES = new Set(['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png']);
const SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * The pages' Content-Security-Policy, in place of helmet's API-wide one. The console's is stricter than helmet's (no
 * `https:` styles or fonts, no inline styles, no frames) and leaves out `upgrade-insecure-requests`: an operator who
 * opens the console over plain HTTP (a LAN address, a container port) would otherwise have its script and every API
 * call upgraded to an HTTPS port that is not there, and see a blank page. Swagger UI's page adds only inline style
 * attributes, which its React components set.
 */
const CONSOLE_CSP =
  "default-src 'self';base-uri 'self';connect-src 'self';font-src 'self';form-action 'self';frame-ancestors 'none';" +
  "img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self'";
const SWAGGER_CSP =
  "default-src 'self';base-uri 'self';connect-src 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';" +
  "img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline'";

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

interface LoadedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  etag: string;
}

interface Answer {
  file: string;
  cacheControl: string;
  csp: string;
  /** index.html: its `__API_BASES__` becomes the served API versions' base paths (what the console's Data page offers). */
  fill?: boolean;
}

/** The Swagger UI page of one API version: the package's files, then the script that points it at `@docs`. */
function swaggerPage(): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>API docs - Tessera</title>',
    '<link rel="icon" type="image/png" href="ui/favicon-32x32.png">',
    '<link rel="stylesheet" href="ui/swagger-ui.css"></head>',
    '<body><div id="swagger-ui"></div>',
    '<script src="ui/swagger-ui-bundle.js"></script><script src="ui/swagger-init.js"></script></body></html>',
    '',
  ].join('\n');
}

export class StaticFiles {
  private readonly cache = new Map<string, LoadedFile>();
  private readonly consoleDir: string;
  private readonly swaggerPageBody = Buffer.from(swaggerPage());
  private readonly swaggerPageTag = `"${createHash('sha256').update(swaggerPage()).digest('base64url').slice(0, 22)}"`;

  constructor(private readonly options: StaticFilesOptions) {
    this.consoleDir = options.consoleDir ?? CONSOLE_DIR;
  }

  /** Puts the static files in front of the framework's request handler on `server` (call before `installFrontDoor`). */
  install(server: Server): void {
    const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!this.serve(req, res)) for (const handler of handlers) handler.call(server, req, res);
    });
  }

  /** Answers `req` when it asks for a static file (true), or leaves it alone (false). */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    if (path === '/admin') {
      this.redirect(req, res, 301, `/admin/${query < 0 ? '' : url.slice(query)}`);
      return true;
    }
    // The front door: someone who opens the bare address finds the console. 302, not 301: browsers would keep a
    // permanent redirect of `/` even if something else were served there later.
    if (path === '/') {
      this.redirect(req, res, 302, '/admin/');
      return true;
    }
    if (path.startsWith('/admin/')) {
      // The admin API's routes match in any case on both adapters (/admin/V1/users too).
      const lower = path.toLowerCase();
      if (lower === '/admin/v1' || lower.startsWith('/admin/v1/')) return false;
      this.answer(req, res, this.consoleAnswer(path.slice('/admin/'.length)));
      return true;
    }
    const docs = this.options.apiBases.find((base) => path.startsWith(`${base}/@docs/ui`));
    if (docs === undefined) return false;
    const rest = path.slice(`${docs}/@docs/ui`.length);
    if (rest === '') {
      this.sendBody(req, res, this.swaggerPageBody, this.swaggerPageTag, 'text/html; charset=utf-8', REVALIDATE, SWAGGER_CSP);
      return true;
    }
    if (!rest.startsWith('/')) return false;
    const name = rest.slice(1);
    if (name === 'swagger-init.js')
      this.answer(req, res, { file: join(this.consoleDir, name), cacheControl: REVALIDATE, csp: SWAGGER_CSP });
    else if (SWAGGER_FILES.has(name)) this.answer(req, res, { file: join(SWAGGER_DIR, name), cacheControl: REVALIDATE, csp: SWAGGER_CSP });
    else this.notFound(req, res);
    return true;
  }

  /** `assets/<name>`: a built asset; anything else is a page of the console (its router reads the path). */
  private consoleAnswer(rest: string): Answer | undefined {
    if (rest.startsWith('assets/')) {
      const name = rest.slice('assets/'.length);
      return SAFE_NAME.test(name) ? { file: join(this.consoleDir, 'assets', name), cacheControl: IMMUTABLE, csp: CONSOLE_CSP } : undefined;
    }
    return { file: join(this.consoleDir, 'index.html'), cacheControl: REVALIDATE, csp: CONSOLE_CSP, fill: true };
  }

  private answer(req: IncomingMessage, res: ServerResponse, answer: Answer | undefined): void {
    const loaded = answer && this.load(answer.file, answer.fill === true);
    if (!answer || !loaded) {
      this.notFound(req, res);
      return;
    }
    const type = TYPES[extname(answer.file)] ?? 'application/octet-stream';
    this.sendBody(req, res, loaded.body, loaded.etag, type, answer.cacheControl, answer.csp);
  }

  private sendBody(req: IncomingMessage, res: ServerResponse, body: Buffer, etag: string, type: string, cacheControl: string, csp: string) {
    trackRequest(this.options.logger, req, res);
    this.options.securityHeaders.applyTo(res);
    res.setHeader('content-security-policy', csp);
    res.setHeader('cache-control', cacheControl);
    res.setHeader('etag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.setHeader('content-type', type);
    res.setHeader('content-length', body.length);
    res.statusCode = 200;
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private redirect(req: IncomingMessage, res: ServerResponse, status: 301 | 302, location: string): void {
    trackRequest(this.options.logger, req, res);
    this.options.securityHeaders.applyTo(res);
    res.setHeader('location', location);
    res.setHeader('content-length', 0);
    res.statusCode = status;
    res.end();
  }

  private notFound(req: IncomingMessage, res: ServerResponse): void {
    trackRequest(this.options.logger, req, res);
    sendErrorResponse(res, new ApiError(ErrorCode.NOT_FOUND, 'No such resource or endpoint.'), this.options.securityHeaders);
  }

  /** The file's bytes, read again only when it changed on disk (a rebuild); undefined when it is not a file. */
  private load(file: string, fill: boolean): LoadedFile | undefined {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const cached = this.cache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
    const read = readFileSync(file);
    const body = fill
      ? Buffer.from(read.toString('utf8').replace('__API_BASES__', escapeAttribute(this.options.apiBases.join(' '))))
      : read;
    const loaded = {
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    };
    this.cache.set(file, loaded);
    return loaded;
  }
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
