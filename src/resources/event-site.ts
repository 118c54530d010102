import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { principalOf } from '../common/principal.js';
import { rawRequestOf } from '../common/request-slot.js';
import type { EventSite } from '../extensions/events/api-events.js';
import { requestIdOf } from '../http/request-context.js';

/**
 * Where a resource request is, for the project's request and response events (`ApiEvents`): `resource` as the API
 * names it (a table's plain name, a custom resource level's path; undefined at the API root), its table, and the
 * caller the guards admitted.
 */
export function eventSiteOf(
  req: unknown,
  resource: string | undefined,
  table: string | undefined,
  query: Readonly<Record<string, unknown>>,
): EventSite {
  const principal = principalOf(req);
  // The guards admitted a caller before any resource handler runs; without one there is nobody to show the events.
  if (!principal) throw new ApiError(ErrorCode.NO_TOKEN, 'An auth token is required.');
  const params = (req as { params?: Record<string, string | undefined> }).params ?? {};
  return {
    resource,
    table,
    method: rawRequestOf(req).method ?? 'GET',
    version: params.version ?? '',
    key: params.pk,
    query,
    principal,
    requestId: requestIdOf(req),
  };
}
