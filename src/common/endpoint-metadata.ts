import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

type Remembered = WeakMap<Function, Map<string, unknown>>;
const byController = new WeakMap<Function, Remembered>();

/**
 * `reflector.getAllAndOverride(key, [handler, controller])`, remembered per endpoint. Decorators
 * set metadata when the classes load, so it cannot change while the app runs, and the guards
 * ask on every request: seven walks through reflect-metadata's prototype chains for one read.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- callers name the metadata's type, as with reflector.get<T>
export function endpointMetadata<T>(reflector: Reflector, key: string, context: ExecutionContext): T | undefined {
  const controller = context.getClass();
  const handler = context.getHandler();
  let handlers = byController.get(controller);
  if (!handlers) byController.set(controller, (handlers = new WeakMap()));
  let values = handlers.get(handler);
  if (!values) handlers.set(handler, (values = new Map<string, unknown>()));
  if (!values.has(key)) values.set(key, reflector.getAllAndOverride<T | undefined>(key, [handler, controller]));
  return values.get(key) as T | undefined;
}
