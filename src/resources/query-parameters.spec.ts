import { apiErrorOf } from '../../test/support/api-error-of.js';
import { acceptQueryParameters } from './query-parameters.js';

describe('acceptQueryParameters', () => {
  it('accepts what LAC clients send to each endpoint', () => {
    const list = { filter: 'a', sysfilter: 'b', order: 'c', sysorder: 'd', pagesize: '5', offset: '0', auth: 'k' };
    expect(acceptQueryParameters({ ...list, nometa: 'true', inlinelimit: '2000' }, 'list')).toEqual({
      nometa: true,
      txsummary: true,
      rulesummary: false,
    });
    expect(acceptQueryParameters({ nometa: 'false', inlinelimit: '0', auth: 'k', pagesize: '3' }, 'get')).toEqual({
      nometa: false,
      txsummary: true,
      rulesummary: false,
    });
    expect(acceptQueryParameters({ txsummary: 'false', rulesummary: 'true', pagesize: '20' }, 'insert')).toEqual({
      nometa: false,
      txsummary: false,
      rulesummary: true,
    });
    expect(acceptQueryParameters({ txsummary: 'true' }, 'update').txsummary).toBe(true);
    expect(acceptQueryParameters({ checksum: 'override', txsummary: 'false' }, 'delete').txsummary).toBe(false);
    expect(acceptQueryParameters({}, 'list')).toEqual({ nometa: false, txsummary: true, rulesummary: false });
  });

  it.each([
    [{ bogus: '1' }, 'list', 'bogus'],
    [{ filter: 'a' }, 'get', 'filter'],
    [{ checksum: 'x' }, 'update', 'checksum'],
    [{ nometa: 'true' }, 'insert', 'nometa'],
    [{ auth: 'k' }, 'delete', 'auth'],
    [{ offset: '1' }, 'get', 'offset'],
    [{ 'filter.Orders': "name='x'" }, 'list', 'filter.Orders'],
    [{ AUTH: 'k' }, 'list', 'AUTH'],
    [{ parent: 'x' }, 'list', 'parent'],
    [{ auth: 'k', nometa: 'true' }, 'value', 'nometa'],
  ] as const)('refuses %j on %s naming it', (query, endpoint, name) => {
    const error = apiErrorOf(() => acceptQueryParameters(query, endpoint));
    expect(error.errorCode).toBe(4000);
    expect(error.message).toContain(`Unknown query parameter "${name}"`);
  });

  it('shortens a long name in the message', () => {
    const error = apiErrorOf(() => acceptQueryParameters({ ['x'.repeat(500)]: '1' }, 'list'));
    expect(error.message).toContain(`"${'x'.repeat(64)}…"`);
    expect(error.message.length).toBeLessThan(300);
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
    [{ inlinelimit: '-1' }, 'list', 'inlinelimit" must be a whole number from 0 to 1000000000'],
    [{ inlinelimit: '1000000001' }, 'get', 'inlinelimit" must be a whole number'],
    [{ inlinelimit: '1e3' }, 'get', 'inlinelimit" must be a whole number'],
    [{ pagesize: '0' }, 'get', 'pagesize" must be a whole number from 1'],
    [{ userfilter: ['a', 'b'] }, 'list', 'userfilter" may be given once'],
  ] as const)('checks the value of %j on %s', (query, endpoint, message) => {
    const error = apiErrorOf(() => acceptQueryParameters(query, endpoint, () => true));
    expect(error.errorCode).toBe(4000);
    expect(error.message).toContain(message);
  });
});
