import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { principalOf, type Principal } from './principal.js';

/**
 * Injects the request's `Principal` into a controller method parameter:
 * `read(@CurrentPrincipal() principal: Principal)`. Undefined on `@Public()` endpoints.
 */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal | undefined =>
  principalOf(context.switchToHttp().getRequest()),
);
