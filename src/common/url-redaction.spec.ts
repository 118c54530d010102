import { deleteAuthParams, isAuthParamName, redactUrl } from './url-redaction.js';

describe('redactUrl', () => {
  it.each([
    ['/rest/a/b/v1/customer?auth=KEY:1', '/rest/a/b/v1/customer?auth=[REDACTED]'],
    ['/x?%61uth=KEY', '/x?%61uth=[REDACTED]'],
    ['/x?a%75th=KEY', '/x?a%75th=[REDACTED]'],
    ['/x?%41%55%54%48=KEY', '/x?%41%55%54%48=[REDACTED]'],
    ['/x?AUTH=KEY', '/x?AUTH=[REDACTED]'],
    ['/x?a%55TH=KEY&pagesize=2', '/x?a%55TH=[REDACTED]&pagesize=2'],
    ['/x?pagesize=2&Auth=KEY&auth=OTHER', '/x?pagesize=2&Auth=[REDACTED]&auth=[REDACTED]'],
    ['/x??auth=KEY', '/x??auth=[REDACTED]'],
    ['/x?%3Fauth=KEY', '/x?%3Fauth=[REDACTED]'],
    ['/x?auth=KEY%26more&next=1', '/x?auth=[REDACTED]&next=1'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each([
    '/rest/default/demo/v1/customer',
    '/x?filter=balance%20%3E%20100&pagesize=2',
    '/x?author=someone&oauth=x&authx=y&au%74hor=z',
    '/x?au+th=KEY',
    '/x?auth',
    '/x?%zz=1&%=2',
  ])('leaves %s as it is', (url) => {
    expect(redactUrl(url)).toBe(url);
  });

  it('answers a URL without a query, or without "%" and "auth", as the same string, unparsed', () => {
    const url = '/rest/default/demo/v1/customer?pagesize=5&offset=10';
    expect(redactUrl(url)).toBe(url);
  });
});

describe('isAuthParamName', () => {
  it.each([
    ['auth', true],
    ['AuTh', true],
    ['%61uth', true],
    ['%2561uth', false],
    ['a%75th%20', false],
    ['oauth', false],
    ['auth2', false],
  ])('%s -> %s', (name, expected) => expect(isAuthParamName(name)).toBe(expected));

  it('catches every spelling of "auth", each letter literal or percent-encoded, in either case (1,296 names)', () => {
    const spellings = (c: string) =>
      [c, c.toUpperCase()].flatMap((l) => {
        const hex = l.charCodeAt(0).toString(16);
        return [l, `%${hex}`, `%${hex.toUpperCase()}`];
      });
    let names = [''];
    for (const c of 'auth') names = names.flatMap((prefix) => spellings(c).map((s) => prefix + s));
    expect(names).toHaveLength(1296);
    let readAsKey = 0;
    for (const name of names) {
      expect(isAuthParamName(name)).toBe(true);
      expect(redactUrl(`/x?${name}=KEY`)).toBe(`/x?${name}=[REDACTED]`);
      // The spellings that authenticate (the lower-case ones) are among them.
      if (new URLSearchParams(`${name}=KEY`).get('auth') === 'KEY') readAsKey += 1;
    }
    expect(readAsKey).toBe(3 ** 4);
  });
});

describe('deleteAuthParams', () => {
  it('removes every name that may carry a key, in any case, and keeps the rest', () => {
    const url = new URL('http://h/x??auth=k0&%61uth=k1&AUTH=k2&pagesize=2&author=me');
    deleteAuthParams(url.searchParams);
    expect([...url.searchParams.keys()]).toEqual(['pagesize', 'author']);
  });
});
