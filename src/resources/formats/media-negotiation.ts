import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';

/** The formats a GET of a table or custom resource can answer in. */
export type ResponseFormat = 'json' | 'csv' | 'xml';

/** What an answer in one format is sent as. */
export interface Negotiated {
  format: ResponseFormat;
  /** The Content-Type header (charset included). */
  contentType: string;
}

/** The media types on offer, in the order that breaks a tie: JSON first. `text/xml` is offered for clients that name only it. */
const OFFERS: ReadonlyArray<{ type: string; subtype: string; format: ResponseFormat; contentType: string }> = [
  { type: 'application', subtype: 'json', format: 'json', contentType: 'application/json; charset=utf-8' },
  { type: 'application', subtype: 'xml', format: 'xml', contentType: 'application/xml; charset=utf-8' },
  { type: 'text', subtype: 'csv', format: 'csv', contentType: 'text/csv; charset=utf-8' },
  { type: 'text', subtype: 'xml', format: 'xml', contentType: 'text/xml; charset=utf-8' },
];

const JSON_ANSWER: Negotiated = { format: 'json', contentType: OFFERS[0]!.contentType };

/** An Accept header longer than this is not read further (the front door bounds headers anyway). */
const MAX_ACCEPT = 4096;

interface Range {
  type: string;
  subtype: string;
  q: number;
}

/** One media range of an Accept header, or undefined when it is not one (skipped, as RFC 9110 lets a server do). */
function rangeOf(text: string): Range | undefined {
  const [mediaRange, ...parameters] = text.split(';');
  const match = /^\s*([!#$%&'*+.^_`|~0-9a-z-]+)\/([!#$%&'*+.^_`|~0-9a-z-]+)\s*$/i.exec(mediaRange ?? '');
  if (!match) return undefined;
  const type = match[1]!.toLowerCase();
  const subtype = match[2]!.toLowerCase();
  if (type === '*' && subtype !== '*') return undefined;
  let q = 1;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=', 2).map((s) => s.trim());
    if (name?.toLowerCase() !== 'q') continue;
    if (value === undefined || !/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value)) return undefined;
    q = Number(value);
  }
  return { type, subtype, q };
}

/** How closely a range names an offer: 3 exactly, 2 by `type/*`, 1 by `*\/*`, 0 not at all. */
function specificity(range: Range, offer: (typeof OFFERS)[number]): number {
  if (range.type === '*') return 1;
  if (range.type !== offer.type) return 0;
  if (range.subtype === '*') return 2;
  return range.subtype === offer.subtype ? 3 : 0;
}

/**
 * The format a GET answers in, chosen by its Accept header (RFC 9110 §12.5.1): each offer takes
 * the q of the most specific range that names it; the highest q wins, then the offer named most
 * specifically (`text/csv, *\/*` is CSV), then JSON before XML before CSV. No Accept header, an
 * empty one, or one with no range that can be read: JSON.
 *
 * @throws ApiError 406 / 4060 when the header accepts none of JSON, XML and CSV.
 */
export function negotiateFormat(accept: string | string[] | undefined): Negotiated {
  const header = (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).slice(0, MAX_ACCEPT);
  if (header.trim() === '') return JSON_ANSWER;
  const ranges = header.split(',').flatMap((part) => rangeOf(part) ?? []);
  if (ranges.length === 0) return JSON_ANSWER;
  let best: { offer: (typeof OFFERS)[number]; q: number; specificity: number } | undefined;
  for (const offer of OFFERS) {
    let chosen: { q: number; specificity: number } | undefined;
    for (const range of ranges) {
      const s = specificity(range, offer);
      if (s > 0 && (!chosen || s > chosen.specificity || (s === chosen.specificity && range.q > chosen.q))) {
        chosen = { q: range.q, specificity: s };
      }
    }
    if (!chosen || chosen.q <= 0) continue;
    if (!best || chosen.q > best.q || (chosen.q === best.q && chosen.specificity > best.specificity)) best = { offer, ...chosen };
  }
  if (!best) {
    throw new ApiError(
      ErrorCode.NOT_ACCEPTABLE,
      'This resource answers in application/json, application/xml (or text/xml) and text/csv; the Accept header allows none of them.',
    );
  }
  return { format: best.offer.format, contentType: best.offer.contentType };
}
