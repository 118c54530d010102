import { apiErrorOf } from '../../test/support/api-error-of.js';
import { acceptQueryParameters } from './query-parameters.js';

describe('acceptQueryParameters', () => {
  it('accepts what LAC clients send to each endpoint', () => {
    const list = { filter: 'a', sysfilter: 'b', order: 'c', sysorder: 'd', pagesize: '5', offset: '0', auth: 'k' };
    const plain = { rulelog: false, ignoreDeleted: false, detail: false, downloadName: undefined };
    expect(acceptQueryParameters({ ...list, nometa: 'true', inlinelimit: '2000' }, 'list')).toEqual({
      nometa: true,
      txsummary: true,
      rulesummary: false,
      ...plain,
    });
    expect(acceptQueryParameters({ nometa: 'false', inlinelimit: '0', auth: 'k', pagesize: '3' }, 'get')).toEqual({
      nometa: false,
      txsummary: true,
      rulesummary: false,
      ...plain,
    });
    expect(acceptQueryParameters({ txsummary: 'false', rulesummary: 'true', pagesize: '20' }, 'insert')).toEqual({
      nometa: false,
      txsummary: false,
      rulesummary: true,
      ...plain,
    });
    expect(acceptQueryParameters({ txsummary: 'true' }, 'update').txsummary).toBe(true);
    expect(acceptQueryParameters({ rulelog: 'true' }, 'update').rulelog).toBe(true);
    expect(acceptQueryParameters({ rulelog: 'false', checksum: 'override' }, 'delete').rulelog).toBe(false);
    expect(acceptQueryParameters({ checksum: 'override', txsummary: 'false' }, 'delete').txsummary).toBe(false);
    expect(acceptQueryParameters({}, 'list')).toEqual({
      nometa: false,
      txsummary: true,
      rulesummary: false,
      rulelog: false,
      ignoreDeleted: false,
      detail: false,
    });
  });

  it.each([
    [{ bogus: '1' }, 'list', 'bogus'],
    [{ filter: 'a' }, 'get', 'filter'],
    [{ checksum: 'x' }, 'update', 'checksum'],
    [{ nometa: 'true' }, 'insert', 'nometa'],
    [{ auth: 'k' }, 'delete', 'auth'],
    [{ filter: 'a' }, 'value', 'filter'],
    [{ ignoredeleted: 'true' }, 'update', 'ignoredeleted'],
    [{ downloadName: 'x' }, 'insert', 'downloadName'],
    [{ chunksize: '1' }, 'delete', 'chunksize'],
    [{ rulelog: 'true' }, 'list', 'rulelog'],
    [{ Logging: 'debug' }, 'list', 'Logging'],
    [{ 'filter.Orders': "name='x'" }, 'list', 'filter.Orders'],
    [{ AUTH: 'k' }, 'list', 'AUTH'],
    [{ parent: 'x' }, 'list', 'parent'],
    [{ auth: 'k', nometa: 'true' }, 'value', 'nometa'],
  ] as const)('refuses %j on %s naming it', (query, endpoint, name) => {
    const error = apiErrorOf(() => acceptQueryParameters(query, endpoint));
    expect(error.errorCode).toBe(4000);
    expect(error.message).toContain(`Unknown query parameter "${name}"`);
  });

  it("accepts every parameter of LAC's lists with its documented values", () => {
    const get = {
      pagesize: '10',
      offset: '20',
      logging: 'debug',
      debug: 'false',
      downloadName: 'customers.json',
      deferred: 'customer.name',
      inline: 'customer.name,customer.city',
      inlinelimit: '-1',
      procrowlimit: '-1',
      procinlinelimit: '100',
      chunksize: '1',
      auth: 'k',
    };
    for (const endpoint of ['list', 'get'] as const) {
      expect(acceptQueryParameters(get, endpoint)).toMatchObject({ detail: true, downloadName: 'customers.json' });
    }
    const write = {
      logging: 'info',
      debug: 'true',
      txsummary: 'true',
      rulesummary: 'false',
      deferred: 'a.b',
      inline: 'a.c',
      inlinelimit: '5',
    };
    for (const endpoint of ['insert', 'update'] as const) expect(acceptQueryParameters(write, endpoint).detail).toBe(true);
    expect(acceptQueryParameters({ ...write, checksum: 'override', ignoredeleted: 'true' }, 'delete').ignoreDeleted).toBe(true);
    expect(acceptQueryParameters({ ignoredeleted: '' }, 'delete').ignoreDeleted).toBe(true);
    expect(acceptQueryParameters({ ignoredeleted: 'false' }, 'delete').ignoreDeleted).toBe(false);
  });

  it.each([
    ['debug', true],
    ['FINEST', true],
    ['finer', true],
    ['info', false],
    ['error,warning', false],
    ['sql=finest', true],
    ['*=info, rules=debug', true],
    ['sql = warning', false],
  ])('reads logging=%j as raising the detail: %s', (logging, detail) => {
    expect(acceptQueryParameters({ logging }, 'list').detail).toBe(detail);
  });

  it('shortens a long name in the message', () => {
    const error = apiErrorOf(() => acceptQueryParameters({ ['x'.repeat(500)]: '1' }, 'list'));
    expect(error.message).toContain(`"${'x'.repeat(64)}…"`);
    expect(error.message).not.toContain('x'.repeat(65));
  });

  it('accepts the per-level forms only for the sub-resources a hook names, on GETs', () => {
    const orders = (path: string): boolean => path === 'Orders' || path === 'Orders.Lineitems';
    expect(() => acceptQueryParameters({ 'filter.Orders': 'a', 'sysorder.Orders.Lineitems': '(x)' }, 'list', orders)).not.toThrow();
    expect(() => acceptQueryParameters({ 'sysfilter.Orders': 'a' }, 'get', orders)).not.toThrow();
    expect(apiErrorOf(() => acceptQueryParameters({ 'filter.Nope': 'a' }, 'list', orders)).errorCode).toBe(4000);
    expect(apiErrorOf(() => acceptQueryParameters({ 'offset.Orders': '1' }, 'list', orders)).errorCode).toBe(4000);
    expect(apiErrorOf(() => acceptQueryParameters({ 'filter.Orders': 'a' }, 'update', orders)).errorCode).toBe(4000);
  });

  it("takes a custom resource's named filters and orders and the parent of a next_batch link on its collection only", () => {
    const custom = (): boolean => true;
    expect(() => acceptQueryParameters({ userfilter: 'f(a:1)', userorder: 'o', parent: 'k' }, 'list', custom)).not.toThrow();
    expect(apiErrorOf(() => acceptQueryParameters({ userfilter: 'f(a:1)' }, 'get', custom)).errorCode).toBe(4000);
    expect(apiErrorOf(() => acceptQueryParameters({ parent: 'k' }, 'update', custom)).errorCode).toBe(4000);
  });

  it("takes a table's named filters and orders (tableQueries) on its collection only; the reader refuses unknown names", () => {
    expect(() => acceptQueryParameters({ userfilter: 'f(a:1)', userorder: 'o' }, 'list')).not.toThrow();
    expect(apiErrorOf(() => acceptQueryParameters({ userorder: 'o' }, 'get')).errorCode).toBe(4000);
    expect(apiErrorOf(() => acceptQueryParameters({ userfilter: 'f(a:1)' }, 'count')).errorCode).toBe(4000);
  });

  it.each([
    [{ nometa: 'yes' }, 'list', 'nometa" must be true or false'],
    [{ nometa: 'TRUE' }, 'get', 'nometa" must be true or false'],
    [{ nometa: ['true', 'true'] }, 'list', 'nometa" may be given once'],
    [{ txsummary: '' }, 'insert', 'txsummary" must be true or false'],
    [{ rulesummary: '1' }, 'delete', 'rulesummary" must be true or false'],
    [{ rulelog: 'yes' }, 'insert', 'rulelog" must be true or false'],
    [{ inlinelimit: '-2' }, 'list', 'inlinelimit" must be -1 (no limit) or a whole number from 0 to 1000000000'],
    [{ inlinelimit: '1000000001' }, 'get', 'inlinelimit" must be -1 (no limit) or a whole number'],
    [{ inlinelimit: '1e3' }, 'get', 'inlinelimit" must be -1 (no limit) or a whole number'],
    [{ pagesize: '0' }, 'get', 'pagesize" must be a whole number from 1'],
    [{ userfilter: ['a', 'b'] }, 'list', 'userfilter" may be given once'],
    [{ chunksize: '0' }, 'list', 'chunksize" must be a whole number from 1'],
    [{ chunksize: 'x' }, 'get', 'chunksize" must be a whole number'],
    [{ procrowlimit: '-2' }, 'list', 'procrowlimit" must be a whole number from -1'],
    [{ procinlinelimit: '1.5' }, 'get', 'procinlinelimit" must be a whole number'],
    [{ debug: 'yes' }, 'list', 'debug" must be true or false'],
    [{ ignoredeleted: 'yes' }, 'delete', 'ignoredeleted" must be true or false'],
    [{ logging: 'verbose' }, 'list', 'logging" takes a level'],
    [{ logging: 'sql=loud' }, 'insert', 'logging" takes a level'],
    [{ logging: ['debug', 'info'] }, 'get', 'logging" may be given once'],
    [{ downloadName: '' }, 'list', 'downloadName" must be a file name'],
    [{ downloadName: 'a\r\nSet-Cookie: x=1' }, 'get', 'downloadName" must be a file name'],
    [{ downloadName: 'x'.repeat(256) }, 'list', 'downloadName" must be a file name'],
  ] as const)('checks the value of %j on %s', (query, endpoint, message) => {
    const error = apiErrorOf(() => acceptQueryParameters(query, endpoint, () => true));
    expect(error.errorCode).toBe(4000);
    expect(error.message).toContain(message);
  });
});
