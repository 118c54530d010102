import type { ContextType, ExecutionContext, Type } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/internal';

/**
 * The context Nest hands a guard for `request` on the endpoint `controller.handler` (Nest's own
 * ExecutionContextHost, so `switchToHttp().getRequest()` is `request`), for guard specs: the
 * guard reads the real decorators of a small controller class through the real Reflector. `type`
 * other than `http` is a microservice or WebSocket call, which the HTTP guards leave alone.
 */
export function endpointContext(
  controller: Type,
  handler: (...args: never[]) => unknown,
  request: object = { headers: {} },
  type: ContextType = 'http',
): ExecutionContext {
  const context = new ExecutionContextHost([request], controller, handler);
  context.setType(type);
  return context;
}
