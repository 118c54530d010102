import { describe, expect, it } from '@jest/globals';
import { recordSecurityHeaders } from './security-headers.js';

type Middleware = Parameters<typeof recordSecurityHeaders>[0];

function responseLog() {
  const log: string[] = [];
  return {
    log,
    res: {
      setHeader: (name: string, value: unknown) => void log.push(`set ${name}: ${String(value)}`),
      removeHeader: (name: string) => void log.push(`remove ${name}`),
    },
  };
}

describe('recordSecurityHeaders', () => {
  it("replays helmet's defaults: the headers it sets, and X-Powered-By removed", () => {
    const { log, res } = responseLog();
    recordSecurityHeaders().applyTo(res as never);
    expect(log).toContain('remove X-Powered-By');
    expect(log).toContain('set x-content-type-options: nosniff');
    expect(log.find((l) => l.startsWith('set content-security-policy: '))).toBeDefined();
  });

  it('adds Cache-Control: no-store, and lists the same headers as pairs for hand-written answers', () => {
    const { log, res } = responseLog();
    const headers = recordSecurityHeaders();
    headers.applyTo(res as never);
    expect(log).toContain('set cache-control: no-store');
    expect(headers.entries).toContainEqual(['cache-control', 'no-store']);
    expect(headers.entries).toContainEqual(['x-content-type-options', 'nosniff']);
    expect(headers.entries.map(([name, value]) => `set ${name}: ${value}`)).toEqual(log.filter((l) => l.startsWith('set ')));
  });

  it('refuses a middleware that reads the request: its headers could differ per request', () => {
    const readsRequest = ((req: { headers: unknown }, _res: unknown, next: () => void) => {
      // eslint-disable-next-line @typescript-eslint/no-meaningless-void-operator -- reading the property is the point
      void req.headers;
      next();
    }) as unknown as Middleware;
    expect(() => recordSecurityHeaders(readsRequest)).toThrow(/read the request \(headers\)/);
  });

  it('refuses a middleware that finishes later, or with an error', () => {
    const later = ((_req: unknown, _res: unknown, next: () => void) => void setTimeout(next, 0)) as unknown as Middleware;
    expect(() => recordSecurityHeaders(later)).toThrow(/synchronously/);
    const failing = ((_req: unknown, _res: unknown, next: (error: Error) => void) =>
      next(new Error('bad directive'))) as unknown as Middleware;
    expect(() => recordSecurityHeaders(failing)).toThrow('bad directive');
  });
});
