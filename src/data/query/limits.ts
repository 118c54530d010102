import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';

/**
 * Bounds on what one query parameter may cost to parse and run (api-contract §5). Every
 * bound is enforced while parsing, before anything is built from it, so an oversized or
 * deeply nested text is refused with 400 / 4001 and never exhausts the stack.
 */
export interface QueryLimits {
  /** Characters of text, summed over repeated parameters. Default 4096. */
  maxLength?: number;
  /** Syntax tree nodes (each condition, `and`/`or`/`not`, column and value counts one). Default 200. */
  maxNodes?: number;
  /** Nesting of parentheses and `not`. Default 32. */
  maxDepth?: number;
  /** Sort terms of order and sysorder together. Default 8. */
  maxSortTerms?: number;
}

export const DEFAULT_QUERY_LIMITS: Readonly<Required<QueryLimits>> = Object.freeze({
  maxLength: 4096,
  maxNodes: 200,
  maxDepth: 32,
  maxSortTerms: 8,
});

export function resolveLimits(limits: QueryLimits = {}): Required<QueryLimits> {
  return { ...DEFAULT_QUERY_LIMITS, ...definedOnly(limits) };
}

function definedOnly(limits: QueryLimits): QueryLimits {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}

const EXCERPT_LENGTH = 24;

/** A short, printable piece of request text for an error message: the client's text is never echoed whole. */
export function excerpt(text: string, max = EXCERPT_LENGTH): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced here
  const printable = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return printable.length <= max ? printable : `${printable.slice(0, max)}…`;
}

/** `<label> syntax error at position <n>: <detail>` (400 / 4001). Positions are 1-based. */
export function syntaxError(label: string, position: number, detail: string): ApiError {
  return new ApiError(ErrorCode.FILTER_SYNTAX, `${label} syntax error at position ${position}: ${detail}`);
}

/** Refuses text longer than the limit; repeated parameters count together. */
export function checkLength(label: string, texts: readonly string[], limits: Required<QueryLimits>): void {
  const length = texts.reduce((sum, text) => sum + text.length, 0);
  if (length > limits.maxLength) {
    throw new ApiError(ErrorCode.FILTER_SYNTAX, `${label} is too long: ${length} characters, at most ${limits.maxLength}`);
  }
}

/** Counts the nodes of one parse (all repeated parameters together) against the limit. */
export class NodeBudget {
  private used = 0;

  constructor(private readonly label: string, private readonly max: number) {}

  spend(position: number): void {
    this.used += 1;
    if (this.used > this.max) {
      throw new ApiError(
        ErrorCode.FILTER_SYNTAX,
        `${this.label} is too complex at position ${position}: more than ${this.max} conditions, columns and values`,
      );
    }
  }
}
