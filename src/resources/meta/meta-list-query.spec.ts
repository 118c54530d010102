import { ApiError } from '../../common/api-error.js';
import { refuseOtherParameters } from './meta-list-query.js';

describe('refuseOtherParameters', () => {
  it('lets the auth parameter through, by its exact name only', () => {
    expect(() => refuseOtherParameters({ auth: 'k', pagesize: '2' }, new Set(['pagesize']))).not.toThrow();
    for (const nearMiss of ['AUTH', 'auth[]', ' auth', '%61uth']) {
      expect(() => refuseOtherParameters({ [nearMiss]: 'k' })).toThrow(ApiError);
    }
  });
});
