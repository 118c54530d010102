import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { ApiError } from '../common/api-error.js';
import type { ResourceColumn } from './resource-registry.js';
import { canonicalDecimal, fromDatabase, fromRequest, sameDecimal, toDatabase, toJson } from './value-codec.js';

describe('canonicalDecimal', () => {
  const numeral = fc
    .tuple(
      fc.boolean(),
      fc.stringMatching(/^\d{1,20}$/),
      fc.option(fc.stringMatching(/^\d{1,8}$/), { nil: undefined }),
    )
    .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);

  it('gives exactly what decimal.js gives, for any numeral and scale (the fast path must not differ)', () => {
    fc.assert(
      fc.property(numeral, fc.integer({ min: 0, max: 10 }), (value, scale) => {
        expect(canonicalDecimal(value, scale)).toBe(new Decimal(value).toFixed(scale));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['10.5', 4, '10.5000'],
    ['-0.00', 2, '0.00'],
    ['-0', 2, '0.00'],
    ['007.5', 2, '7.50'],
    ['1.005', 2, '1.01'],
    ['12', 0, '12'],
    ['1e3', 2, '1000.00'],
  ])('%s at scale %i is %s', (value, scale, expected) => {
    expect(canonicalDecimal(value, scale)).toBe(expected);
  });

  it('keeps every digit when the column has no scale', () => {
    expect(canonicalDecimal('123.4500', undefined)).toBe('123.45');
  });
});

describe('sameDecimal', () => {
  const numeral = fc
    .tuple(fc.boolean(), fc.stringMatching(/^\d{1,6}$/), fc.option(fc.stringMatching(/^\d{1,4}$/), { nil: undefined }), fc.boolean())
    .map(([negative, whole, fraction, exponent]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent ? 'e1' : ''}`);

  it('agrees with decimal.js for any two numerals, canonical or not (the fast path must not differ)', () => {
    fc.assert(
      fc.property(numeral, numeral, fc.integer({ min: 0, max: 4 }), (a, b, scale) => {
        expect(sameDecimal(a, b)).toBe(new Decimal(a).equals(b));
        const [x, y] = [canonicalDecimal(a, scale), canonicalDecimal(b, scale)];
        expect(sameDecimal(x, y)).toBe(new Decimal(x).equals(y));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with decimal.js on pairs that are often the same value, written two ways', () => {
    fc.assert(
      fc.property(numeral, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), (a, s1, s2) => {
        const [x, y] = [canonicalDecimal(a, s1), canonicalDecimal(a, s2)];
        expect(sameDecimal(x, y)).toBe(new Decimal(x).equals(y));
        expect(sameDecimal(x, canonicalDecimal(a, s1))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['0.00', '-0.00', true],
    ['-0.00', '0.00', true],
    ['0.00', '1.00', false],
    ['1.50', '1.5', true],
    ['10.00', '1.00', false],
    ['5.0000', '5.0000', true],
  ])('%s and %s: %s', (a, b, same) => {
    expect(sameDecimal(a, b)).toBe(same);
  });
});

describe('fromRequest on a decimal column', () => {
  const column = (precision: number | undefined, scale: number | undefined): ResourceColumn => ({
    name: 'amount', propertyName: 'amount', kind: 'decimal', precision, scale,
    nullable: true, generated: false, hasDefault: false, primary: false, unique: false,
  });

  /** The rule as first written, all through decimal.js: the fast path for plain numerals must agree with it. */
  function reference(c: ResourceColumn, text: string): string {
    const d = new Decimal(text);
    if (c.scale !== undefined && d.decimalPlaces() > c.scale) return 'too many places';
    if (c.precision !== undefined && c.scale !== undefined && d.abs().trunc().toFixed(0).replace(/^0$/, '').length > c.precision - c.scale) return 'out of range';
    return canonicalDecimal(d, c.scale);
  }
  function actual(c: ResourceColumn, value: string | number): string {
    try {
      return fromRequest(c, value) as string;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return /decimal places/.test(error.message) ? 'too many places' : /out of range/.test(error.message) ? 'out of range' : error.message;
    }
  }

  const numeral = fc
    .tuple(fc.boolean(), fc.stringMatching(/^\d{1,14}$/), fc.option(fc.stringMatching(/^\d{1,6}$/), { nil: undefined }), fc.option(fc.integer({ min: -8, max: 8 }), { nil: undefined }))
    .map(([negative, whole, fraction, exponent]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `e${exponent}`}`);
  const shape = fc.oneof(
    fc.constant<[number | undefined, number | undefined]>([undefined, undefined]),
    fc.integer({ min: 0, max: 6 }).chain((scale) => fc.tuple(fc.integer({ min: Math.max(scale, 1), max: 16 }), fc.constant(scale))),
    fc.tuple(fc.constant(undefined), fc.integer({ min: 0, max: 6 })),
  );

  it('accepts, refuses and canonicalises every numeral exactly as decimal.js measures it', () => {
    fc.assert(
      fc.property(numeral, shape, (text, [precision, scale]) => {
        expect(actual(column(precision, scale), text)).toBe(reference(column(precision, scale), text));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['1.50', 1, '1.5'],
    ['-0.00', 2, '0.00'],
    ['00012.30', 2, '12.30'],
    [' 7 ', 2, '7.00'],
  ])('%j at scale %i is %s', (text, scale, expected) => {
    expect(fromRequest(column(10, scale), text)).toBe(expected);
  });

  it.each([
    ['1e100000000', 'out of range'],
    ['1e600000000', 'out of range'],
    ['1e9999999999999999', 'out of range'],
    ['-1e9999999999999999', 'out of range'],
    ['1e-9999999999999999', 'out of range'],
    ['9.99e14', '999000000000000.0000'],
    ['1e15', 'out of range'],
    ['0e9999999999999999', '0.0000'],
    ['12.5e-1', '1.2500'],
    ['Infinity', 'Column "amount" must be a finite number.'],
    ['-Infinity', 'Column "amount" must be a finite number.'],
    ['NaN', 'Column "amount" must be a finite number.'],
  ])('decimal(19,4) takes %j as %j, without building its digits', (text, expected) => {
    // Building a value's digits is toFixed; a value past the column is refused in its exponent form.
    const toFixed = jest.spyOn(Decimal.prototype, 'toFixed');
    try {
      expect(actual(column(19, 4), text)).toBe(expected);
      if (expected === 'out of range' || expected.includes('finite')) expect(toFixed).not.toHaveBeenCalled();
    } finally {
      toFixed.mockRestore();
    }
  });

  it.each([
    ['1e308', '1e+308'],
    ['1e309', 'out of range'],
    ['-1e400', 'out of range'],
    ['1e-400', 'out of range'],
    [`1${'0'.repeat(400)}`, 'out of range'],
    ['2.5e-300', '2.5e-300'],
  ])('a column without precision (a double) takes %j as %j', (text, expected) => {
    expect(actual(column(undefined, undefined), text)).toBe(expected);
  });

  it('refuses JSON numbers past the double range (parsed as Infinity) as not finite', () => {
    expect(actual(column(19, 4), JSON.parse('1e400'))).toBe('Column "amount" must be a finite number.');
    expect(actual(column(19, 4), JSON.parse('-1e400'))).toBe('Column "amount" must be a finite number.');
  });

  it('refuses a number with more integer digits than precision - scale, leading zeros aside', () => {
    expect(actual(column(4, 2), '123.4')).toBe('out of range');
    expect(fromRequest(column(4, 2), '0012.5')).toBe('12.50');
  });
});

describe('fromRequest on integer columns', () => {
  const column = (integerBits: number | undefined, unsigned?: boolean): ResourceColumn => ({
    name: 'qty', propertyName: 'qty', kind: 'integer', integerBits, unsigned,
    nullable: true, generated: false, hasDefault: false, primary: false, unique: false,
  });
  const outcome = (c: ResourceColumn, value: unknown): unknown => {
    try {
      return fromRequest(c, value);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return /out of range/.test(error.message) ? 'out of range' : 'not an integer';
    }
  };

  it.each([
    [16, 32_767, 32_767],
    [16, -32_768, -32_768],
    [16, 32_768, 'out of range'],
    [16, -32_769, 'out of range'],
    [32, 2_147_483_647, 2_147_483_647],
    [32, '2147483648', 'out of range'],
    [32, -2_147_483_649, 'out of range'],
    [8, 128, 'out of range'],
    [24, 8_388_607, 8_388_607],
    [64, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    [64, '9007199254740992', 'out of range'],
    [undefined, -Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
    [32, '-0', 0],
    [32, '0042', 42],
    [32, 1.5, 'not an integer'],
    [32, '1e3', 'not an integer'],
    [32, ' 7', 'not an integer'],
    [32, true, 'not an integer'],
    [32, Number.POSITIVE_INFINITY, 'not an integer'],
    [64, Number.NEGATIVE_INFINITY, 'not an integer'],
    [64, 'Infinity', 'not an integer'],
    [64, Number.NaN, 'not an integer'],
  ])('a %s-bit column takes %j as %j', (bits, value, expected) => {
    expect(outcome(column(bits), value)).toBe(expected);
  });

  it('holds an unsigned column to what every database can store: 0 to the signed maximum', () => {
    expect(outcome(column(32, true), -1)).toBe('out of range');
    expect(outcome(column(32, true), 2_147_483_647)).toBe(2_147_483_647);
    expect(outcome(column(32, true), 2_147_483_648)).toBe('out of range');
  });

  it('names the column and its range', () => {
    expect(() => fromRequest(column(16), 40_000)).toThrow('Column "qty" is out of range for a 16-bit integer (-32768 to 32767).');
  });
});

describe('fromRequest on string columns', () => {
  const column = (extra: Partial<ResourceColumn>): ResourceColumn => ({
    name: 'label', propertyName: 'label', kind: 'string', nullable: true, generated: false, hasDefault: false, primary: false, unique: false, ...extra,
  });

  it('counts characters (code points), not UTF-16 units', () => {
    expect(fromRequest(column({ length: 2 }), '😀😀')).toBe('😀😀');
    expect(() => fromRequest(column({ length: 2 }), '😀😀😀')).toThrow('Column "label" is longer than 2 characters.');
  });

  it('refuses NUL anywhere, and an empty key (but not an empty value)', () => {
    expect(() => fromRequest(column({}), 'a\u0000')).toThrow(/NUL/);
    expect(() => fromRequest(column({ primary: true }), '')).toThrow(/primary key and may not be empty/);
    expect(fromRequest(column({}), '')).toBe('');
  });

  it('refuses lone surrogates (each database would store them differently), keeps pairs', () => {
    for (const text of ['z\ud800', '\udfff', 'a\udc00b', '\ud83d']) {
      expect(() => fromRequest(column({}), text)).toThrow('Column "label" is not well-formed Unicode');
    }
    expect(fromRequest(column({}), 'z\ud83d\ude00')).toBe('z😀');
  });
});

describe('ENUM and SET columns (MySQL/MariaDB)', () => {
  const column = (extra: Partial<ResourceColumn>): ResourceColumn => ({
    name: 'rating', propertyName: 'rating', kind: 'string', nullable: true, generated: false, hasDefault: false, primary: false, unique: false, ...extra,
  });
  const rating = column({ values: ['G', 'PG', "it's", 'a,b'] });
  const features = column({ name: 'features', values: ['Trailers', 'Commentaries', 'Deleted Scenes'], valueSet: true });

  it('an ENUM takes one of its values, as written', () => {
    expect(fromRequest(rating, 'a,b')).toBe('a,b');
    expect(() => fromRequest(rating, 'g')).toThrow('Column "rating" must be one of "G", "PG", "it\'s", "a,b".');
  });

  it('a SET takes its members, each once, in the order it declares them (as the server stores them)', () => {
    expect(fromRequest(features, 'Deleted Scenes,Trailers,Trailers')).toBe('Trailers,Deleted Scenes');
    expect(fromRequest(features, '')).toBe('');
    expect(() => fromRequest(features, 'Trailers,Bloopers')).toThrow(
      'Column "features" must be a comma-separated list of "Trailers", "Commentaries", "Deleted Scenes" (not "Bloopers").',
    );
  });
});

describe('JSON columns and arrays', () => {
  const column = (extra: Partial<ResourceColumn>): ResourceColumn => ({
    name: 'doc', propertyName: 'doc', kind: 'json', nullable: true, generated: false, hasDefault: false, primary: false, unique: false, ...extra,
  });
  const doc = column({});
  const tags = column({ name: 'tags', items: 'string' });

  it('holds any JSON value as its JSON text, answered as the value; a JSON null is SQL NULL', () => {
    expect(fromRequest(doc, { b: [1, true, null], a: 'x' })).toBe('{"b":[1,true,null],"a":"x"}');
    expect(fromRequest(doc, 'text')).toBe('"text"');
    expect(fromRequest(doc, null)).toBeNull();
    expect(toJson(doc, '{"b":[1,true,null],"a":"x"}')).toEqual({ b: [1, true, null], a: 'x' });
  });

  it('refuses NUL and lone surrogates at any depth, in keys too', () => {
    expect(() => fromRequest(doc, { a: ['x\u0000'] })).toThrow('Column "doc" may not contain the NUL character.');
    expect(() => fromRequest(doc, { 'k\u0000': 1 })).toThrow(/NUL/);
    expect(() => fromRequest(doc, ['\ud800'])).toThrow(/not well-formed Unicode/);
  });

  it('reads what each driver hands back: parsed values, JSON text, or text that is no JSON', () => {
    expect(fromDatabase(doc, { a: 1 } as unknown as string, 'postgres')).toBe('{"a":1}');
    expect(fromDatabase(doc, '{"a": 1}', 'mysql')).toBe('{"a":1}');
    expect(fromDatabase(doc, 'plain', 'sqlite')).toBe('"plain"');
    expect(fromDatabase(tags, ['a', null] as unknown as string, 'postgres')).toBe('["a",null]');
  });

  it('an array takes an array of its kind of values (or nulls), and is bound as an array', () => {
    expect(fromRequest(tags, ['a', null])).toBe('["a",null]');
    expect(() => fromRequest(tags, 'a')).toThrow('Column "tags" must be an array of strings (or nulls).');
    expect(() => fromRequest(column({ name: 'scores', items: 'integer' }), [1, 1.5])).toThrow('must be an array of integers (or nulls)');
    expect(toDatabase(tags, '["a",null]', 'postgres')).toEqual(['a', null]);
    expect(toDatabase(doc, '{"a":1}', 'postgres')).toBe('{"a":1}');
  });
});

describe('binary columns', () => {
  const column = (extra: Partial<ResourceColumn>): ResourceColumn => ({
    name: 'data', propertyName: 'data', kind: 'binary', nullable: true, generated: false, hasDefault: false, primary: false, unique: false, ...extra,
  });
  const data = column({});
  const small = column({ name: 'small', length: 4 });
  const bytes = (text: string): Buffer => Buffer.from(text, 'base64');

  it('takes LAC\'s "b64:" form and the object a GET answers; keeps one canonical base64 text per byte string', () => {
    expect(fromRequest(data, 'b64:AAH/')).toBe('AAH/');
    expect(fromRequest(data, 'b64:')).toBe('');
    expect(fromRequest(data, { type: 'base64', length: 3, value: 'AAH/' })).toBe('AAH/');
    expect(fromRequest(data, { type: 'base64', value: 'AAH/' })).toBe('AAH/');
    // Unused bits of the last character do not make another value.
    expect(fromRequest(data, 'b64:QR==')).toBe('QQ==');
    expect(fromRequest(data, null)).toBeNull();
  });

  it('round-trips any bytes: request, database, JSON', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (array) => {
        const buffer = Buffer.from(array);
        const canonical = fromRequest(data, `b64:${buffer.toString('base64')}`) as string;
        const bound = toDatabase(data, canonical, 'postgres') as Buffer;
        expect(bound.equals(buffer)).toBe(true);
        expect(fromDatabase(data, bound, 'mysql')).toBe(canonical);
        expect(toJson(data, canonical)).toEqual({ type: 'base64', length: buffer.length, value: canonical });
      }),
    );
  });

  it('refuses other forms, bad base64, a link, a wrong length and bytes past the column\'s size, naming the column', () => {
    for (const [value, text] of [
      ['AAH/', 'must be bytes in base64, written "b64:<base64>"'],
      ['b64:AAH', 'is not standard base64'],
      ['b64:AA H/', 'is not standard base64'],
      ['b64:AA-_', 'is not standard base64'],
      [[0, 1], 'must be bytes in base64'],
      [{ type: 'base64', length: 3, url: 'http://h/t/1/data' }, 'holds a link to its value'],
      [{ type: 'base64', length: 2, value: 'AAH/' }, 'says it holds 2 bytes, but its value holds 3'],
      [{ type: 'base64', value: 'AAH/', extra: 1 }, 'must be bytes in base64'],
    ] as const) {
      expect(() => fromRequest(data, value)).toThrow(`Column "data" ${text}`);
    }
    expect(fromRequest(small, `b64:${Buffer.alloc(4).toString('base64')}`)).toBe('AAAAAA==');
    expect(() => fromRequest(small, `b64:${Buffer.alloc(5).toString('base64')}`)).toThrow('Column "small" is longer than 4 bytes (5).');
  });

  it("reads SQLite's text in a blob column as its UTF-8 bytes", () => {
    expect(bytes(fromDatabase(data, 'hé', 'sqlite') as string).toString('utf8')).toBe('hé');
  });
});
