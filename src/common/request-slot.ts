import type { IncomingMessage } from 'node:http';

/** The raw Node request behind an Express or Fastify request object. */
export function rawRequestOf(request: unknown): IncomingMessage {
  const r = request as { raw?: IncomingMessage };
  return (r.raw ?? request) as IncomingMessage;
}

/** A value a guard attaches to a request for the guards and handlers after it. */
export interface RequestSlot<T> {
  readonly set: (request: unknown, value: T) => void;
  /** Undefined when nothing attached it (an endpoint the guard leaves alone). */
  readonly get: (request: unknown) => T | undefined;
}

/**
 * A named place on the request for one kind of value (the principal, the admin, the caller's
 * access), kept on the raw Node request so both adapters share it, under a symbol of its own
 * so nothing else can read or overwrite it.
 */
export function requestSlot<T>(name: string): RequestSlot<T> {
  const key = Symbol(name);
  type Holder = Record<symbol, T | undefined>;
  return {
    set: (request, value) => {
      (rawRequestOf(request) as unknown as Holder)[key] = value;
    },
    get: (request) => (rawRequestOf(request) as unknown as Holder)[key],
  };
}
