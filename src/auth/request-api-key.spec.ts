import type { IncomingMessage } from 'node:http';
import { ApiError } from '../common/api-error.js';
import { apiKeyOfRequest } from './request-api-key.js';

function request(method: string, url: string, authorization?: string): IncomingMessage {
  return { method, url, headers: authorization ? { authorization } : {} } as unknown as IncomingMessage;
}

function errorCodeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    return (error as ApiError).errorCode;
  }
  return undefined;
}

describe('apiKeyOfRequest', () => {
  it('reads the header first', () => {
    expect(apiKeyOfRequest(request('POST', '/x?auth=other:1', 'Espresso abc:1'), false)).toBe('abc');
  });

  it('reads ?auth on GET when permitted, dropping the :n suffix', () => {
    expect(apiKeyOfRequest(request('GET', '/x?a=1&auth=abc%2D1:1'), true)).toBe('abc-1');
  });

  it('refuses ?auth with 4014 when not permitted or not a GET', () => {
    expect(errorCodeOf(() => apiKeyOfRequest(request('GET', '/x?auth=abc:1'), false))).toBe(4014);
    expect(errorCodeOf(() => apiKeyOfRequest(request('POST', '/x?auth=abc:1'), true))).toBe(4014);
    expect(errorCodeOf(() => apiKeyOfRequest(request('HEAD', '/x?auth=abc:1'), true))).toBe(4014);
  });

  it('reads the key only under the exact name auth: a near miss carries none, and is no token in the URL either', () => {
    const nearMisses = [
      'AUTH',
      'Auth',
      '%61uth',
      'a%75th',
      '%2561uth',
      'auth[]',
      'auth[0]',
      'auth[x]',
      '%20auth',
      'auth%20',
      '+auth',
      '?auth',
    ];
    for (const name of nearMisses) {
      expect(apiKeyOfRequest(request('GET', `/x?${name}=abc:1`), true)).toBeUndefined();
      expect(apiKeyOfRequest(request('GET', `/x?${name}=abc:1`), false)).toBeUndefined();
    }
    expect(apiKeyOfRequest(request('GET', '/x?AUTH=other&pagesize=2&auth=abc:1'), true)).toBe('abc');
  });

  it('finds nothing without header or ?auth, or with another scheme', () => {
    expect(apiKeyOfRequest(request('GET', '/x?authx=1'), true)).toBeUndefined();
    expect(apiKeyOfRequest(request('GET', '/x', 'Basic dXNlcg=='), true)).toBeUndefined();
    expect(apiKeyOfRequest(request('GET', '/x?auth='), true)).toBeUndefined();
  });
});
