import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type { Resource } from '../data/resource-registry.js';

/** The answer to a write on a view, which is read-only for every role: 405 / 4050, `Allow: GET`. */
export function readOnlyViewError(resource: Resource): ApiError {
  return new ApiError(ErrorCode.METHOD_NOT_ALLOWED, `${resource.name} is a view, which is read-only: only GET.`, { Allow: 'GET' });
}
