import type { GlobalValues } from '../common/global-values.js';
import { rawRequestOf } from '../common/request-context.js';

/**
 * Who is calling: resolved from the request's auth token by `ApiKeyGuard`, before any
 * controller runs. Read it with `@CurrentPrincipal()`. Role checks and row filters (the
 * roles issue) are decided from this alone.
 */
export interface Principal {
  /** Id of the token used (tessera_api_tokens.id). */
  readonly tokenId: number;
  /** The login name for login tokens; the optional identifier of a hand-made token; else null. */
  readonly userIdentifier: string | null;
  /** The role names: a login token's user's as they are now; those stored on any other token at its creation. */
  readonly roleNames: readonly string[];
  /** Global values usable as `@{name}` in row filters: the user's (login tokens) or the token's own (manual). */
  readonly globals: Readonly<GlobalValues>;
}

const PRINCIPAL = Symbol('tesseraPrincipal');

type WithPrincipal = { [PRINCIPAL]?: Principal };

/** Attaches the principal to the request (on the raw Node request, so both adapters share it). */
export function setPrincipal(request: unknown, principal: Principal): void {
  (rawRequestOf(request) as WithPrincipal)[PRINCIPAL] = principal;
}

/** The principal of a request that passed `ApiKeyGuard`; undefined on public endpoints. */
export function principalOf(request: unknown): Principal | undefined {
  return (rawRequestOf(request) as WithPrincipal)[PRINCIPAL];
}
