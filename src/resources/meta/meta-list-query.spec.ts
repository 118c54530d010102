import { ApiError } from '../../common/api-error.js';
import { pageOfMetaList, refuseOtherParameters } from './meta-list-query.js';

describe('refuseOtherParameters', () => {
  it('lets the auth parameter through, by its exact name only', () => {
    expect(() => refuseOtherParameters({ auth: 'k', pagesize: '2' }, new Set(['pagesize']))).not.toThrow();
    for (const nearMiss of ['AUTH', 'auth[]', ' auth', '%61uth']) {
      expect(() => refuseOtherParameters({ [nearMiss]: 'k' })).toThrow(ApiError);
    }
  });
});

describe('pageOfMetaList', () => {
  it('sorts numbers by value, not as text (ident 13 after 9)', () => {
    const entries = [9, 13, 2, 10].map((ident) => ({ ident }));
    const idents = (sysorder: string): unknown[] =>
      pageOfMetaList(entries, { sysorder }, () => '').map((e) => (e as { ident: number }).ident);
    expect(idents('(ident)')).toEqual([2, 9, 10, 13]);
    expect(idents('(ident:desc)')).toEqual([13, 10, 9, 2]);
  });
});
