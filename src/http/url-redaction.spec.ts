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
    // Near misses: not read as a key, redacted all the same.
    ['/x?auth[]=KEY', '/x?auth[]=[REDACTED]'],
    ['/x?auth[0]=KEY&auth[x]=KEY', '/x?auth[0]=[REDACTED]&auth[x]=[REDACTED]'],
    ['/x?auth%5B%5D=KEY', '/x?auth%5B%5D=[REDACTED]'],
    ['/x?[auth]=KEY', '/x?[auth]=[REDACTED]'],
    ['/x?%20auth=KEY', '/x?%20auth=[REDACTED]'],
    ['/x?auth%20=KEY', '/x?auth%20=[REDACTED]'],
    ['/x?+auth=KEY', '/x?+auth=[REDACTED]'],
    ['/x?auth+=KEY', '/x?auth+=[REDACTED]'],
    ['/x?%09AUTH%0A=KEY', '/x?%09AUTH%0A=[REDACTED]'],
    ['/x?%2561uth=KEY', '/x?%2561uth=[REDACTED]'],
    ['/x?%252561%2575th=KEY', '/x?%252561%2575th=[REDACTED]'],
    ['/x?%2Bauth=KEY', '/x?%2Bauth=[REDACTED]'],
    ['/x?%25zzauth=KEY&auth%2=KEY', '/x?%25zzauth=KEY&auth%2=KEY'],
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
    '/x?auth[x]y=KEY&a%20uth=KEY&authauth[]=KEY',
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
    ['%2561uth', true],
    ['a%75th%20', true],
    ['%E2%80%83auth', true],
    ['%00auth', true],
    ['auth[]', true],
    ['auth[0][1]', true],
    ['oauth', false],
    ['auth2', false],
    ['au th', false],
    ['auth[]x', false],
    ['%', false],
    ['%%', false],
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
    for (const name of names) {
      expect(isAuthParamName(name)).toBe(true);
      expect(redactUrl(`/x?${name}=KEY`)).toBe(`/x?${name}=[REDACTED]`);
      // And encoded once more: a reader that decodes twice takes it for `auth` too.
      const twice = name.replace(/%/g, '%25');
      expect(redactUrl(`/x?${twice}=KEY`)).toBe(`/x?${twice}=[REDACTED]`);
    }
  });
});

describe('deleteAuthParams', () => {
  it('removes every name that may carry a key, in any case, and keeps the rest', () => {
    const url = new URL('http://h/x??auth=k0&%61uth=k1&AUTH=k2&pagesize=2&author=me&auth[]=k3&%2561uth=k4&+auth=k5');
    deleteAuthParams(url.searchParams);
    expect([...url.searchParams.keys()]).toEqual(['pagesize', 'author']);
  });
});
