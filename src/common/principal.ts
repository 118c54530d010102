import type { GlobalValues } from './global-values.js';
import { requestSlot } from './request-slot.js';

/**
 * Who is calling: resolved from the request's auth token by `ApiKeyGuard`, before any
 * controller runs. Read it with `@CurrentPrincipal()`. Role checks and row filters (the
 * roles issue) are decided from this alone.
 */
export interface Principal {
  /** Id of the token used (tessera_api_tokens.id); null for a request authenticated by HTTP Basic, which uses none. */
  readonly tokenId: number | null;
  /** The login name for login tokens; the optional identifier of a hand-made token; else null. */
  readonly userIdentifier: string | null;
  /** The role names: a login token's user's as they are now; those stored on any other token at its creation. */
  readonly roleNames: readonly string[];
  /** Global values usable as `@{name}` in row filters: the user's (login tokens) or the token's own (manual). */
  readonly globals: Readonly<GlobalValues>;
}

const principals = requestSlot<Principal>('tesseraPrincipal');

/** Attaches the principal to the request (`ApiKeyGuard` does). */
export const setPrincipal = principals.set;

/** The principal of a request that passed `ApiKeyGuard`; undefined on public endpoints. */
export const principalOf = principals.get;
