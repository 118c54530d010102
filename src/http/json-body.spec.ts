import { ApiError } from '../common/api-error.js';
import { isJsonContentType, parseJsonBody, parseJsonBytes, readsAsJson, untypedBodyAllowed } from './json-body.js';

describe('parseJsonBytes', () => {
  it('reads UTF-8, four-byte sequences and a byte-order mark included', () => {
    expect(parseJsonBytes(Buffer.from('\ufeff{"a":"\u00e9\u{1F600}"}'))).toEqual({ a: '\u00e9\u{1F600}' });
  });

  it.each([[[0xff]], [[0xc0, 0xaf]], [[0xed, 0xa0, 0x80]], [[0xe2, 0x82]]])('refuses bytes that are not UTF-8: %j', (bytes) => {
    const body = Buffer.concat([Buffer.from('{"a":"'), Buffer.from(bytes), Buffer.from('"}')]);
    expect(() => parseJsonBytes(body)).toThrow('The request body is not valid UTF-8.');
  });
});

describe('parseJsonBody', () => {
  it('parses objects and arrays', () => {
    expect(parseJsonBody('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
  });

  it.each([
    '{"__proto__":{}}',
    '{"x":{"constructor":1}}',
    '[{"prototype":2}]',
    '{"\\u005f_proto__":{"polluted":true}}',
    '{"a":1,"x":{"constructo\\u0072":1}}',
  ])('refuses polluting keys in %s, however they are spelt', (text) => {
    expect(() => parseJsonBody(text)).toThrow(ApiError);
  });

  it('keeps the words as values, and escapes that spell other keys', () => {
    expect(parseJsonBody('{"note":"the constructor of __proto__","\\u0061":"\\u00e9"}')).toEqual({
      note: 'the constructor of __proto__',
      a: 'é',
    });
  });

  it.each(['{"name":"a\\u0000b"}', '{"\\u0000":1}', '[{"x":[1,{"deep\\u0000key":true}]}]', '"\\u0000"', '{"name":"\u0000"}'])(
    'refuses the NUL character in a value or key at any depth, escaped or raw: %s',
    (text) => {
      expect(() => parseJsonBody(text)).toThrow(/NUL/);
    },
  );

  it('keeps an escaped backslash followed by "u0000": that is text, not NUL', () => {
    expect(parseJsonBody('{"path":"C:\\\\u0000"}')).toEqual({ path: 'C:\\u0000' });
  });

  it('refuses malformed JSON with 4000', () => {
    try {
      parseJsonBody('{');
      throw new Error('not thrown');
    } catch (error) {
      expect((error as ApiError).errorCode).toBe(4000);
    }
  });
});

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['application/merge-patch+json', true],
    ['text/plain', false],
    [undefined, false],
  ])('%s -> %s', (type, expected) => {
    expect(isJsonContentType(type)).toBe(expected);
  });
});

describe('readsAsJson', () => {
  it.each([
    ['application/json', true],
    ['application/vnd.api+json; charset=utf-8', true],
    [undefined, true],
    ['', false],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
  ])('%j -> %s', (type, expected) => {
    expect(readsAsJson(type)).toBe(expected);
  });
});

describe('parseJsonBody and the byte-order mark', () => {
  it('ignores one leading byte-order mark', () => {
    expect(parseJsonBody('\ufeff{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonBody('\ufeff')).toBeUndefined();
  });

  it.each(['\ufeff\ufeff{"a":1}', ' \ufeff{"a":1}', '{"a":1}\ufeff'])('refuses one anywhere else: %j', (text) => {
    expect(() => parseJsonBody(text)).toThrow(/not valid JSON/);
  });
});

describe('untypedBodyAllowed', () => {
  const listed = new Set(['https://app.example.com']);
  it.each([
    [{}, true],
    [{ 'sec-fetch-site': 'same-origin' }, true],
    [{ 'sec-fetch-site': 'none' }, true],
    [{ origin: 'https://app.example.com' }, true],
    [{ origin: 'https://app.example.com', 'sec-fetch-site': 'cross-site' }, false],
    [{ origin: 'http://evil.example' }, false],
    [{ origin: 'null' }, false],
    [{ 'sec-fetch-site': 'cross-site' }, false],
    [{ 'sec-fetch-site': 'same-site' }, false],
  ])('%j: %s', (headers, allowed) => {
    expect(untypedBodyAllowed(headers, listed)).toBe(allowed);
  });
});
