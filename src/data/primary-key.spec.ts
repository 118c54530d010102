import fc from 'fast-check';
import { ApiError } from '../common/api-error.js';
import { keySegment, parseKeySegment } from './primary-key.js';
import type { Resource, ResourceColumn } from './resource-registry.js';

function column(name: string, kind: ResourceColumn['kind']): ResourceColumn {
  return { name, propertyName: name, kind, nullable: false, generated: false, hasDefault: false, primary: true, unique: false };
}

function resourceKeyedBy(...columns: ResourceColumn[]): Resource {
  return {
    name: 'thing', urlName: 'thing', tableName: 'thing', target: 'thing', columns, columnsByName: new Map(columns.map((c) => [c.name, c])),
    primaryKey: columns, uniqueKeys: [], parents: [], children: [], readBackAfterWrite: false, view: false,
  };
}

const composite = resourceKeyedBy(column('a', 'string'), column('b', 'string'), column('n', 'integer'));
const single = resourceKeyedBy(column('name', 'string'));
/** Any text a key part may hold: not empty (its href would be the collection's), no NUL. */
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => !s.includes('\u0000'));

describe('key segments', () => {
  it('round-trips any composite key, "~", "/" and "%" inside parts included', () => {
    fc.assert(fc.property(text, text, fc.integer(), (a, b, n) => {
      expect(parseKeySegment(composite, keySegment(composite, { a, b, n }))).toEqual([a, b, n]);
    }));
  });

  it('encodes "~" inside a part, so it cannot be taken for the separator', () => {
    expect(keySegment(composite, { a: 'x~y', b: 'p q/r', n: 3 })).toBe('x%7Ey~p%20q%2Fr~3');
  });

  it('writes "." and ".." parts as %2E, which no client removes as a dot segment, and reads them back', () => {
    expect(keySegment(single, { name: '.' })).toBe('%2E');
    expect(keySegment(single, { name: '..' })).toBe('%2E%2E');
    expect(keySegment(single, { name: '...' })).toBe('...');
    expect(keySegment(composite, { a: '..', b: '.', n: 1 })).toBe('%2E%2E~%2E~1');
    expect(parseKeySegment(single, '%2E%2E')).toEqual(['..']);
    expect(parseKeySegment(single, '%2e')).toEqual(['.']);
  });

  it('reads a single-column key whole, even with a bare "~" in it', () => {
    expect(parseKeySegment(single, 'Alpha~Omega')).toEqual(['Alpha~Omega']);
    expect(parseKeySegment(single, keySegment(single, { name: '100% ~ sure' }))).toEqual(['100% ~ sure']);
  });

  it('refuses a wrong number of parts and a malformed encoding with 400 / 4000', () => {
    for (const segment of ['x~y', 'x~y~1~2', 'x~%E0%A4%A~1']) {
      expect(() => parseKeySegment(composite, segment)).toThrow(ApiError);
    }
  });

  it('refuses an empty part and a NUL in any part, naming the column', () => {
    for (const [segment, name] of [['~y~1', 'a'], ['x~~1', 'b'], ['x~y~', 'n'], ['x%00~y~1', 'a']] as const) {
      expect(() => parseKeySegment(composite, segment)).toThrow(`Column "${name}"`);
    }
    expect(() => parseKeySegment(single, '')).toThrow('Column "name" is part of the primary key and may not be empty');
  });

  it('looks up any exact integer, even one past a 32-bit column (it names no row)', () => {
    const narrow = resourceKeyedBy({ ...column('id', 'integer'), integerBits: 32 });
    expect(parseKeySegment(narrow, '3000000000')).toEqual([3_000_000_000]);
    expect(() => parseKeySegment(narrow, '9007199254740993')).toThrow(ApiError);
  });
});
