import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { nulInBody } from './nul-character.js';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MENTIONS_FORBIDDEN_KEY = /__proto__|constructor|prototype/;

const BYTE_ORDER_MARK = 0xfeff;

/**
 * Parses a JSON request body as its bytes came: they must be UTF-8 (RFC 8259 §8.1). Decoding
 * would put U+FFFD in place of a byte that is not, and store it; the body is refused instead
 * (a native check, run once over the bytes).
 */
export function parseJsonBytes(bytes: Buffer): unknown {
  if (!isUtf8(bytes)) throw new ApiError(ErrorCode.BAD_REQUEST, 'The request body is not valid UTF-8.');
  return parseJsonBody(bytes.toString('utf8'));
}

/**
 * Parses a JSON request body. Keys that can pollute prototypes are refused outright,
 * whatever their depth, rather than silently dropped; so is the NUL character in any key or
 * string value (see nul-character.ts). One leading byte-order mark is ignored (RFC 8259 §8.1
 * allows it), here for both adapters: the body arrives as UTF-8 decoded text with it kept.
 */
export function parseJsonBody(decoded: string): unknown {
  const text = decoded.charCodeAt(0) === BYTE_ORDER_MARK ? decoded.slice(1) : decoded;
  if (text.trim() === '') return undefined;
  try {
    // A key can only be one of those names if the text spells it, or escapes it (\u...), and
    // JSON can only carry a NUL escaped (\u0000; a raw one is not valid JSON): otherwise skip
    // the reviver, which costs a call per key and value.
    if (!text.includes('\\u') && !MENTIONS_FORBIDDEN_KEY.test(text)) return JSON.parse(text);
    return JSON.parse(text, function reviver(key: string, value: unknown) {
      if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKey(key);
      if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) throw new NulCharacter();
      return value;
    });
  } catch (error) {
    if (error instanceof ForbiddenKey) {
      throw new ApiError(ErrorCode.BAD_REQUEST, `The request body may not contain the key "${error.key}".`);
    }
    if (error instanceof NulCharacter || text.includes('\u0000')) throw nulInBody();
    throw new ApiError(ErrorCode.BAD_REQUEST, 'The request body is not valid JSON.');
  }
}

class ForbiddenKey extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

class NulCharacter extends Error {}

/**
 * Whether a body with this Content-Type is read as JSON: a JSON type, or no Content-Type at all (LAC read such
 * bodies as JSON, and LAC's Node SDK posts its login without one). A Content-Type that is present and not JSON,
 * the empty one included, is refused (415 / 4150).
 */
export function readsAsJson(contentType: string | undefined): boolean {
  return contentType === undefined || isJsonContentType(contentType);
}

/** True for `application/json` and `application/<x>+json`, with any parameters. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Whether a body without Content-Type may be read as JSON: only when no browser on another site
 * sent it. A page anywhere may post such a body to any URL without a CORS preflight (a login from
 * its visitor's browser, say); LAC's Node SDK, which sends no Content-Type, sends no Origin nor
 * Sec-Fetch-Site either. So: no Origin, or one CORS_ORIGINS lists; and no Sec-Fetch-Site, or
 * `same-origin` or `none` (typed by the user).
 */
export function untypedBodyAllowed(headers: IncomingHttpHeaders, corsOrigins: ReadonlySet<string>): boolean {
  const { origin } = headers;
  const site = headers['sec-fetch-site'];
  return (origin === undefined || corsOrigins.has(origin)) && (site === undefined || site === 'same-origin' || site === 'none');
}
