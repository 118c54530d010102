import { apiErrorOf } from '../../../test/support/api-error-of.js';
import { xmlProblem } from '../../../test/support/xml-well-formed.js';
import { field, toCsv } from './csv-writer.js';
import { negotiateFormat } from './media-negotiation.js';
import { elementOf, toXml } from './xml-writer.js';

describe('negotiateFormat', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['text/csv', 'csv'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['text/*', 'csv'],
    ['text/csv, */*', 'csv'],
    ['text/csv;q=0.5, application/xml;q=0.9', 'xml'],
    ['application/json;q=0.1, text/csv', 'csv'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'xml'],
    ['*/*;q=0.1, application/json;q=0', 'xml'],
    ['nonsense', 'json'],
    [['text/csv', 'application/json;q=0.2'], 'csv'],
  ])('Accept %p → %s', (accept, format) => {
    expect(negotiateFormat(accept as string).format).toBe(format);
  });

  it('answers 406 / 4060 when nothing on offer is acceptable', () => {
    for (const accept of ['text/html', 'image/png, text/plain', 'application/json;q=0, */*;q=0', 'text/csv;q=0']) {
      const error = apiErrorOf(() => negotiateFormat(accept));
      expect([error.statusCode, error.errorCode]).toEqual([406, 4060]);
    }
  });

  it('gives each format its content type with charset', () => {
    expect(negotiateFormat('text/csv').contentType).toBe('text/csv; charset=utf-8');
    expect(negotiateFormat('application/xml').contentType).toBe('application/xml; charset=utf-8');
    expect(negotiateFormat('text/xml').contentType).toBe('text/xml; charset=utf-8');
  });
});

describe('toCsv', () => {
  it('writes a header row and RFC 4180 fields, CRLF after each line', () => {
    const csv = toCsv(
      ['name', 'balance', 'note'],
      [
        { name: 'Alpha, "and" Sons', balance: 12.5, note: null },
        { name: 'line\nbreak', balance: -3, note: true },
      ],
    );
    expect(csv).toBe('name,balance,note\r\n"Alpha, ""and"" Sons",12.5,\r\n"line\nbreak",-3,true\r\n');
  });

  it('prefixes text that a spreadsheet would run as a formula, never a number', () => {
    expect(field('=SUM(A1)')).toBe(`"'=SUM(A1)"`);
    expect(field('+1+2')).toBe(`"'+1+2"`);
    expect(field('-2+3')).toBe(`"'-2+3"`);
    expect(field('@cmd')).toBe(`"'@cmd"`);
    expect(field('\tx')).toBe(`"'\tx"`);
    expect(field('\rx')).toBe(`"'\rx"`);
    expect(field('=x,"y"')).toBe(`"'=x,""y"""`);
    expect(field(-5)).toBe('-5');
    expect(field('-12.50')).toBe('-12.50');
    expect(field('+7')).toBe('+7');
    expect(toCsv(['=evil'], [])).toBe(`"'=evil"\r\n`);
  });

  it('writes a missing attribute and null as an empty field, an object as its JSON text', () => {
    expect(toCsv(['a', 'b'], [{ a: { '@metadata': { href: 'h', length: 3 } } }])).toBe(
      'a,b\r\n"{""@metadata"":{""href"":""h"",""length"":3}}",\r\n',
    );
  });
});

describe('toXml', () => {
  const valid = (xml: string) => expect(xmlProblem(xml)).toBeUndefined();

  it('writes objects with @metadata as XML attributes, and the next batch as an element', () => {
    const xml = toXml(
      [
        {
          '@metadata': { href: 'http://h/c/1', checksum: 'R:1', links: [{ rel: 'children', href: 'http://h/o?x=1&y=2' }] },
          name: 'A & <B>',
          n: 1,
          z: null,
        },
        { '@metadata': { next_batch: 'http://h/c?offset=20&pagesize=20' } },
      ],
      'customer',
    );
    valid(xml);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<data xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" resource="customer">' +
        '<object href="http://h/c/1" checksum="R:1"><link rel="children" href="http://h/o?x=1&amp;y=2"/>' +
        '<name>A &amp; &lt;B&gt;</name><n>1</n><z xsi:nil="true"/></object>' +
        '<next_batch href="http://h/c?offset=20&amp;pagesize=20"/></data>\n',
    );
  });

  it('maps any attribute name to valid XML', () => {
    const names = ['Unit Price', '1st', 'a:b', 'xmlThing', 'ünïcode', '<script>', '"q"', '', 'a\u0001b', 'id'];
    const xml = toXml([Object.fromEntries(names.map((n, i) => [n, i]))], 'odd');
    valid(xml);
    expect(elementOf('Unit Price')).toEqual(['attribute name="Unit Price"', 'attribute']);
    expect(elementOf('ünïcode')).toEqual(['ünïcode', 'ünïcode']);
    expect(elementOf('xmlThing')[1]).toBe('attribute');
    expect(elementOf('a\u0001b')[0]).toBe(`attribute name-base64="${Buffer.from('a\u0001b').toString('base64')}"`);
  });

  it('sends text XML cannot carry as base64, and keeps a CR', () => {
    const xml = toXml([{ a: 'bell\u0007', b: 'x\r\ny' }], 't');
    valid(xml);
    expect(xml).toContain(`<a encoding="base64">${Buffer.from('bell\u0007').toString('base64')}</a>`);
    expect(xml).toContain('<b>x&#13;\ny</b>');
  });

  it('nests sub-resources: lists, a parent object, a missing parent', () => {
    const xml = toXml([{ '@metadata': { href: 'h', checksum: 'c' }, Orders: [{ id: 1 }], Rep: { name: 'r' }, Boss: null }], 'Customers');
    valid(xml);
    expect(xml).toContain('<Orders><object><id>1</id></object></Orders><Rep><object><name>r</name></object></Rep><Boss xsi:nil="true"/>');
  });
});
