/**
 * The contract custom providers are written against is providers/types.d.ts, the file their
 * authors read; the host compiles against the same file, so the two cannot drift apart.
 * `JsProvider` is a module's provider object, unwrapped; `ProviderContext` what the host
 * hands it with each call (never the database).
 */
export type { AuthProvider as JsProvider, ProviderContext, ProviderLogger } from '../../providers/types.js';

const OPTIONAL_FUNCTIONS = {
  configure: 'configure(config)',
  getLoginInfo: 'getLoginInfo()',
  getConfigInfo: 'getConfigInfo()',
} as const;

/**
 * What a module exports, with `default` unwrapped (also the `default` of a transpiled
 * CommonJS module): the provider object, or the factory that makes it.
 */
export function unwrapModule(namespace: unknown): unknown {
  let candidate = namespace;
  for (let depth = 0; depth < 2; depth++) {
    if (!isObject(candidate) || !('default' in candidate)) break;
    if (depth > 0 && 'authenticate' in candidate) break;
    candidate = candidate.default;
  }
  return candidate;
}

/** Runs a factory (a plain function or a class) to get the provider object. */
export function instantiate(factory: (...args: unknown[]) => unknown): unknown {
  const isClass = /^class[\s{]/.test(Function.prototype.toString.call(factory));
  return isClass ? new (factory as unknown as new () => unknown)() : factory();
}

/** Every problem with the provider object's shape, each saying what to change; empty when it is usable. */
export function shapeProblems(candidate: unknown): string[] {
  if (!isObject(candidate)) {
    return [
      `it exports ${describeValue(candidate)}, not a provider: export an object with an authenticate(payload, context) function, ` +
        'or a factory function that returns one (export default, or module.exports for CommonJS)',
    ];
  }
  const problems: string[] = [];
  if (!('authenticate' in candidate) || candidate.authenticate === undefined) {
    problems.push(
      'it has no authenticate function: add authenticate(payload, context), which answers {errorMessage} or {roleNames, userIdentifier, ...}',
    );
  } else if (typeof candidate.authenticate !== 'function') {
    problems.push(
      `authenticate is ${describeValue(candidate.authenticate)}, not a function: make it a function authenticate(payload, context)`,
    );
  }
  for (const [name, signature] of Object.entries(OPTIONAL_FUNCTIONS)) {
    const value = candidate[name];
    if (value !== undefined && typeof value !== 'function') {
      problems.push(`${name} is ${describeValue(value)}, not a function: make it a function ${signature}, or remove it`);
    }
  }
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'undefined') return 'nothing';
  return `a ${typeof value}`;
}
