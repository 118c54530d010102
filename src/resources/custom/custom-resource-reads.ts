import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import type { ResourceLevel } from './custom-resource-registry.js';

/** What a nested GET needs of its request besides the level and the access. */
export interface CustomReadRequest {
  /** Absolute URL of the API base, e.g. http://host/rest/default/demo/v1 */
  baseUrl: string;
  /** The request's absolute URL (next_batch links are built from it; `auth` parameters already removed). */
  url: URL;
  query: Record<string, unknown>;
}

/** GET on a custom resource's level: the nested document (see README, "Custom resources"). */
@Injectable()
export class CustomResourceReads {
  async list(_level: ResourceLevel, _access: ResourceAccess, _request: CustomReadRequest): Promise<unknown[]> {
    throw new ApiError(ErrorCode.BAD_REQUEST, 'Reading custom resources is not available yet.');
  }

  async get(_level: ResourceLevel, _access: ResourceAccess, _keySegment: string, _request: CustomReadRequest): Promise<unknown[]> {
    throw new ApiError(ErrorCode.BAD_REQUEST, 'Reading custom resources is not available yet.');
  }
}
