import type { IncomingMessage } from 'node:http';
import { nextBatchLink, rawQueryValue, requestUrlWithoutAuth } from './request-context.js';

function request(url: string): IncomingMessage {
  return { url, headers: { host: 'api.test:8080' }, socket: {} } as unknown as IncomingMessage;
}

describe('requestUrlWithoutAuth', () => {
  it('names the request origin and leaves out every auth parameter, however spelled', () => {
    const url = requestUrlWithoutAuth(request('/rest/default/demo/v1/customers?AUTH=k1&pagesize=2&auth=k2'), { trustProxy: false });
    expect(url.toString()).toBe('http://api.test:8080/rest/default/demo/v1/customers?pagesize=2');
  });

  it("keeps PUBLIC_URL's path prefix (the path is appended, not resolved)", () => {
    const url = requestUrlWithoutAuth(request('/rest/default/demo/v1/customers'), {
      trustProxy: false,
      publicUrl: 'https://example.com/api',
    });
    expect(url.toString()).toBe('https://example.com/api/rest/default/demo/v1/customers');
  });
});

describe('nextBatchLink', () => {
  it('sets offset, replacing one the request had', () => {
    const url = new URL('http://h/rest/default/demo/v1/customers?offset=2&pagesize=2');
    expect(nextBatchLink(url, 4)).toBe('http://h/rest/default/demo/v1/customers?offset=4&pagesize=2');
  });
});

describe('rawQueryValue', () => {
  it.each([
    ['/x?auth=k', 'k'],
    ['/x?a=1&auth=k%3A1&auth=second', 'k:1'],
    ['/x?auth=a+b%2Bc', 'a b+c'],
    ['/x?auth', ''],
    ['/x?auth=', ''],
    ['/x?pagesize=2&auth', ''],
    ['/x?AUTH=k&%61uth=k&authx=k&xauth=k&auth[]=k&?auth=k', undefined],
    ['/x?', undefined],
    ['/x', undefined],
    ['/x/auth=k', undefined],
  ])('%s -> %j', (url, expected) => {
    expect(rawQueryValue(request(url), 'auth')).toBe(expected);
  });
});
