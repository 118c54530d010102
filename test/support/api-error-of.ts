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
