import { ErrorCode } from '../common/error-codes.js';
import { toApiError } from './all-exceptions.filter.js';

describe('toApiError', () => {
  it("takes a request stream error with a 4xx statusCode for the client's, even with a connection error code", () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
    expect(toApiError(aborted)).toMatchObject({ statusCode: 400, errorCode: ErrorCode.BAD_REQUEST });
  });

  it("still takes a driver's ECONNRESET for the database being unavailable", () => {
    expect(toApiError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toMatchObject({
      statusCode: 503,
      errorCode: ErrorCode.DATABASE_UNAVAILABLE,
    });
  });

  it('leaves a 5xx statusCode to the internal error', () => {
    expect(toApiError(Object.assign(new Error('x'), { statusCode: 500 }))).toMatchObject({
      statusCode: 500,
      errorCode: ErrorCode.INTERNAL,
    });
  });
});
