import { ApiError } from '../common/api-error.js';
import { parseAuthRequest } from './auth-request.js';

function refused(body: unknown): string {
  try {
    parseAuthRequest(body);
  } catch (error) {
    expect((error as ApiError).errorCode).toBe(4000);
    return (error as ApiError).message;
  }
  throw new Error('accepted');
}

describe('parseAuthRequest', () => {
  it('reads a login, keeping extra credential fields for the provider', () => {
    expect(parseAuthRequest({ username: 'demo', password: 'pw', otp: '123' })).toEqual({
      kind: 'login',
      payload: { username: 'demo', password: 'pw', otp: '123' },
    });
  });

  it('reads a re-validation and a disable', () => {
    expect(parseAuthRequest({ apikey: 'abc' })).toEqual({ kind: 'revalidate', apikey: 'abc' });
    expect(parseAuthRequest({ apikey: 'abc:1', disable: true })).toEqual({ kind: 'disable', apikey: 'abc' });
    expect(parseAuthRequest({ apikey: 'abc', disable: false })).toEqual({ kind: 'revalidate', apikey: 'abc' });
  });

  it.each([
    [undefined],
    [null],
    ['text'],
    [[{ username: 'a', password: 'b' }]],
    [{}],
    [{ username: 'demo' }],
    [{ password: 'pw' }],
    [{ username: '', password: 'pw' }],
    [{ username: 42, password: 'pw' }],
    [{ username: 'demo', password: 42 }],
    [{ username: 'demo', password: 'pw', new_password: 5 }],
    [{ username: 'demo', password: 'x'.repeat(1025) }],
    [{ apikey: 42 }],
    [{ apikey: '' }],
    [{ apikey: 'abc', disable: 'yes' }],
    [{ apikey: 'abc', username: 'demo', password: 'pw' }],
  ])('refuses %p with 400 / 4000', (body) => {
    expect(refused(body)).toEqual(expect.any(String));
  });

  describe('for a custom provider', () => {
    it('passes any credential fields through: a token, or a lone password', () => {
      expect(parseAuthRequest({ id_token: 'eyJ…' }, 'any')).toEqual({ kind: 'login', payload: { id_token: 'eyJ…' } });
      expect(parseAuthRequest({ password: 'word' }, 'any')).toEqual({ kind: 'login', payload: { password: 'word' } });
    });

    it('still checks the types and sizes of the fields it knows, and tells token requests apart', () => {
      for (const body of [{ username: 42 }, { password: 'x'.repeat(1025) }, null, []]) {
        expect(() => parseAuthRequest(body, 'any')).toThrow(ApiError);
      }
      expect(parseAuthRequest({ apikey: 'abc' }, 'any')).toEqual({ kind: 'revalidate', apikey: 'abc' });
    });
  });
});
