import fc from 'fast-check';
import { ApiError } from '../common/api-error.js';
import { keySegment, parseKeySegment } from './primary-key.js';
import type { Resource, ResourceColumn } from './resource-registry.js';

function column(name: string, kind: ResourceColumn['kind']): ResourceColumn {
  return { name, propertyName: name, kind, nullable: false, generated: false, hasDefault: false, primary: true, unique: false };
}

function resourceKeyedBy(...columns: ResourceColumn[]): Resource {
  return {
    name: 'thing', tableName: 'thing', target: 'thing', columns, columnsByName: new Map(columns.map((c) => [c.name, c])),
    primaryKey: columns, parents: [], children: [],
  };
}

const composite = resourceKeyedBy(column('a', 'string'), column('b', 'string'), column('n', 'integer'));
const single = resourceKeyedBy(column('name', 'string'));
const text = fc.string({ unit: 'grapheme', minLength: 0, maxLength: 12 });

describe('key segments', () => {
  it('round-trips any composite key, "~", "/" and "%" inside parts included', () => {
    fc.assert(fc.property(text, text, fc.integer(), (a, b, n) => {
      expect(parseKeySegment(composite, keySegment(composite, { a, b, n }))).toEqual([a, b, n]);
    }));
  });

  it('encodes "~" inside a part, so it cannot be taken for the separator', () => {
    expect(keySegment(composite, { a: 'x~y', b: 'p q/r', n: 3 })).toBe('x%7Ey~p%20q%2Fr~3');
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
});
