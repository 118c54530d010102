import { contentDisposition } from './download-name.js';

describe('contentDisposition', () => {
  it.each([
    ['customers.json', `attachment; filename="customers.json"; filename*=UTF-8''customers.json`],
    ['Kunden Übersicht.json', `attachment; filename="Kunden _bersicht.json"; filename*=UTF-8''Kunden%20%C3%9Cbersicht.json`],
    ['a"b\\c%d/e.txt', `attachment; filename="a_b_c_d_e.txt"; filename*=UTF-8''a%22b%5Cc%25d%2Fe.txt`],
    ["it's (1)*.csv", `attachment; filename="it's (1)*.csv"; filename*=UTF-8''it%27s%20%281%29%2A.csv`],
    ['😀.json', `attachment; filename="_.json"; filename*=UTF-8''%F0%9F%98%80.json`],
  ])('names %j safely', (name, header) => {
    expect(contentDisposition(name)).toBe(header);
  });

  it('never lets a header line break or a parameter end early', () => {
    for (const name of ['a;b=c', 'x"; filename=evil.exe', '\u2028\u2029', 'a b']) {
      const header = contentDisposition(name);
      expect(header).not.toMatch(/[\r\n]/);
      expect(header.match(/"/g)).toHaveLength(2);
      expect(header.split("filename*=UTF-8''")[1]).toMatch(/^[A-Za-z0-9!#$&+.^_`|~%-]+$/);
    }
  });
});
