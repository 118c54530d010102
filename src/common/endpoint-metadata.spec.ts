import { describe, expect, it } from '@jest/globals';
import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { endpointMetadata } from './endpoint-metadata.js';

const MARK = 'test:mark';

@SetMetadata(MARK, 'class')
class Marked {
  @SetMetadata(MARK, 'method')
  own(): void {}

  inherited(): void {}
}

@SetMetadata(MARK, 'subclass')
class Sub extends Marked {}

function contextOf(controller: Function, handler: Function): ExecutionContext {
  return { getClass: () => controller, getHandler: () => handler } as unknown as ExecutionContext;
}

/** A Reflector that counts the lookups that reach reflect-metadata. */
function countingReflector(): { reflector: Reflector; lookups: () => number } {
  const reflector = new Reflector();
  let lookups = 0;
  const original = reflector.getAllAndOverride.bind(reflector);
  reflector.getAllAndOverride = ((key: string, targets: Function[]) => (
    lookups++,
    original(key, targets)
  )) as Reflector['getAllAndOverride'];
  return { reflector, lookups: () => lookups };
}

describe('endpointMetadata', () => {
  it("answers as getAllAndOverride does: the handler's value first, then its controller's", () => {
    const reflector = new Reflector();
    expect(endpointMetadata(reflector, MARK, contextOf(Marked, Marked.prototype.own))).toBe('method');
    expect(endpointMetadata(reflector, MARK, contextOf(Marked, Marked.prototype.inherited))).toBe('class');
    expect(endpointMetadata(reflector, 'test:absent', contextOf(Marked, Marked.prototype.own))).toBeUndefined();
  });

  it('keeps one answer per controller, so an inherited handler is judged by the class it is called on', () => {
    const reflector = new Reflector();
    expect(endpointMetadata(reflector, MARK, contextOf(Marked, Marked.prototype.inherited))).toBe('class');
    expect(endpointMetadata(reflector, MARK, contextOf(Sub, Marked.prototype.inherited))).toBe('subclass');
  });

  it('asks reflect-metadata once per endpoint and key, undefined answers included', () => {
    const { reflector, lookups } = countingReflector();
    class Fresh {
      handler(): void {}
    }
    for (let i = 0; i < 5; i++) {
      endpointMetadata(reflector, MARK, contextOf(Fresh, Fresh.prototype.handler));
      endpointMetadata(reflector, 'test:other', contextOf(Fresh, Fresh.prototype.handler));
    }
    expect(lookups()).toBe(2);
  });
});
