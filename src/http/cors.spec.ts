import type { IncomingMessage, ServerResponse } from 'node:http';
import { CorsPolicy } from './cors.js';

const APP = 'https://app.example.com';

function exchange(method: string, url: string, headers: Record<string, string>) {
  const set = new Map<string, string>();
  const req = { method, url, headers } as unknown as IncomingMessage;
  const res = { setHeader: (name: string, value: string) => set.set(name, value) } as unknown as ServerResponse;
  return { req, res, set };
}

describe('CorsPolicy.admit', () => {
  const policy = new CorsPolicy([APP]);

  it.each(['/rest/default/demo/v1/customer', '/REST/default/demo/v1', '/rest', '/rest?x=1', '/admin/v1/users', '/Admin/V1', '/admin/v1?x'])(
    'answers %s, a path of the API',
    (url) => {
      const { req, res, set } = exchange('GET', url, { origin: APP });
      expect(policy.admit(req, res)).toBe('pass');
      expect(set.get('access-control-allow-origin')).toBe(APP);
    },
  );

  it.each(['/restaurant', '/admin/', '/admin/v10/users', '/admin/v1x', '/health/ready', '/metrics', '/'])(
    'names no origin on %s',
    (url) => {
      const { req, res, set } = exchange('GET', url, { origin: APP });
      expect(policy.admit(req, res)).toBe('pass');
      expect(set.size).toBe(0);
      expect(policy.admit(exchange('OPTIONS', url, { origin: APP, 'access-control-request-method': 'GET' }).req, res)).toBe(
        'refused-preflight',
      );
    },
  );

  it('tells a served preflight from a refused one, and a plain OPTIONS from both', () => {
    const preflight = { origin: APP, 'access-control-request-method': 'DELETE' };
    expect(policy.admit(exchange('OPTIONS', '/admin/v1/users', preflight).req, exchange('GET', '/', {}).res)).toBe('preflight');
    const other = { ...preflight, origin: 'https://other.example' };
    expect(policy.admit(exchange('OPTIONS', '/admin/v1/users', other).req, exchange('GET', '/', {}).res)).toBe('refused-preflight');
    expect(policy.admit(exchange('OPTIONS', '/admin/v1/users', { origin: APP }).req, exchange('GET', '/', {}).res)).toBe('pass');
    expect(new CorsPolicy([]).admit(exchange('OPTIONS', '/rest/x', preflight).req, exchange('GET', '/', {}).res)).toBe('refused-preflight');
  });
});
