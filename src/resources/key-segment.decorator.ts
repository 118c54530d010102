import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { rawLastPathSegment } from '../http/request-context.js';

/**
 * The `:pk` segment of `<resource>/<pk>` as sent, still URL-encoded, for `parseKeySegment`.
 * `@Param('pk')` is decoded by the router, which loses the difference between the `~` that
 * joins composite-key parts and an encoded `%7E` inside a part, and decodes `%25` once too often.
 */
export const KeySegment = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  rawLastPathSegment(context.switchToHttp().getRequest()),
);
