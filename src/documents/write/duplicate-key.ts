import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { ConstraintRefusal } from '../../database/errors/constraint-violations.js';
import { apiErrorFromDatabase } from '../../database/errors/database-errors.js';

/** Whether a write failed on a duplicate key (a unique or primary-key constraint), however it was reported. */
export function isDuplicateKey(error: unknown): boolean {
  if (error instanceof ApiError) return error.errorCode === ErrorCode.DUPLICATE_KEY;
  const driverError = error instanceof ConstraintRefusal ? error.driverError : error;
  return apiErrorFromDatabase(driverError)?.errorCode === ErrorCode.DUPLICATE_KEY;
}
