import type { ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { CurrentPrincipal } from './current-principal.decorator.js';
import { setPrincipal, type Principal } from './principal.js';

/** The factory Nest calls for a parameter decorated with `@CurrentPrincipal()`. */
function factoryOf(decorator: ParameterDecorator): (data: unknown, context: ExecutionContext) => unknown {
  class Probe {
    handler(_principal: unknown): void {}
  }
  decorator(Probe.prototype, 'handler', 0);
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'handler') as Record<
    string,
    { factory: (data: unknown, context: ExecutionContext) => unknown }
  >;
  return Object.values(args)[0]!.factory;
}

const contextFor = (request: unknown) => ({ switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;

describe('@CurrentPrincipal()', () => {
  const principal: Principal = { tokenId: 7, userIdentifier: 'sam', roleNames: ['Sales rep'], globals: { employee_id: 1 } };

  it("hands the guard's principal to the controller, on an Express-style and a Fastify-style request", () => {
    const factory = factoryOf(CurrentPrincipal());
    const raw = { headers: {} };
    setPrincipal(raw, principal);
    expect(factory(undefined, contextFor(raw))).toBe(principal);
    expect(factory(undefined, contextFor({ raw }))).toBe(principal);
  });

  it('is undefined on a request no guard resolved', () => {
    expect(factoryOf(CurrentPrincipal())(undefined, contextFor({ headers: {} }))).toBeUndefined();
  });
});
