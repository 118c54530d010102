import { ApiError } from '../../src/common/api-error.js';

/** The ApiError `run` throws; anything else thrown (or nothing) fails the test. */
export function apiErrorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError, nothing was thrown');
}

/** The ApiError `pending` rejects with (an async guard's refusal); any other rejection, or none, fails the test. */
export async function apiRejectionOf(pending: Promise<unknown>): Promise<ApiError> {
  try {
    await pending;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a rejection with an ApiError, the promise was fulfilled');
}
