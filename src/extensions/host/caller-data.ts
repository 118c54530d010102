import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { Principal } from '../../common/principal.js';
import type { ApiSettings } from '../../config/api-settings.js';
import { jsonColumns } from '../../data/json-row.js';
import { keySegmentOf, parseKeySegment } from '../../data/primary-key.js';
import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import type { DocumentTransaction } from '../../documents/document-transaction.js';
import type { DocumentsService } from '../../documents/documents.service.js';
import type { ReadQuery } from '../../documents/read/read-query.js';
import type { LevelRow } from '../../documents/read/level-reader.js';
import { CHECKSUM_OVERRIDE } from '../../logic/write-transaction.js';
import { ResourceAccess } from '../../security/resource-access.js';
import type { SecurityService } from '../../security/security.service.js';
import type { ExtensionRunner } from '../extension-runner.js';
import type { DataAccess, JsonRow, KeyValue, ListOptions } from '../functions/function-definition.js';

/** What the data host is built on: the documents layer, as one caller, for one extension call. */
export interface CallerDataParts {
  documents: DocumentsService;
  registry: ResourceRegistry;
  security: SecurityService;
  runner: ExtensionRunner;
  settings: ApiSettings;
  principal: Principal;
  /** Aborted past the time limit: every call refuses from then on. */
  signal: AbortSignal;
  /** The call's write transaction (a POST or PUT of a function that writes); reads go through it too. Absent: read-only. */
  transaction?: DocumentTransaction;
}

/** The project's mistake (a name it misspelt, a write on a GET): a failure of the extension, 500 / 5002, its message in the log only. */
class HostMisuse extends Error {
  override name = 'HostMisuse';
}

/**
 * `DataAccess` for project code: every read and write through the documents layer as the caller (its
 * grants, row filters and readable columns; `system: true` reads with full rights), writes in the call's
 * one transaction through the rules. Tessera's own failures pass through as they are (`passThrough`).
 */
export class CallerData implements DataAccess {
  readonly writable: boolean;

  constructor(private readonly parts: CallerDataParts) {
    this.writable = parts.transaction !== undefined;
  }

  async list(resource: string, options: ListOptions = {}): Promise<JsonRow[]> {
    this.refuseWhenOver();
    const access = this.access(resource, options.system === true);
    const { settings } = this.parts;
    const pageSize = options.pagesize ?? settings.pageSizeDefault;
    const offset = options.offset ?? 0;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > settings.pageSizeMax || !Number.isSafeInteger(offset) || offset < 0) {
      throw new HostMisuse(`data.list("${resource}"): pagesize must be 1 to ${settings.pageSizeMax} and offset a whole number`);
    }
    const query: ReadQuery = {
      filters: options.filter === undefined ? [] : [options.filter],
      sysfilters: [],
      order: options.order,
      pageSize,
      offset,
    };
    const { transaction, documents, runner } = this.parts;
    const rows = transaction
      ? await runner.passThrough(transaction.page(access, { request: query }, pageSize, offset))
      : (await runner.passThrough(documents.list(access, query))).rows;
    return rows.map((r) => jsonColumns(access.resource, r.row, r.readable));
  }

  async get(resource: string, key: KeyValue, options: { system?: boolean } = {}): Promise<JsonRow | undefined> {
    this.refuseWhenOver();
    const access = this.access(resource, options.system === true);
    const found = await this.row(access, keySegmentOf(Array.isArray(key) ? key : [key]));
    return found && jsonColumns(access.resource, found.row, found.readable);
  }

  /** The row with this key (a URL's key segment) as `access` may see it: the row a row function is given. */
  async row(access: ResourceAccess, keySegment: string): Promise<LevelRow | undefined> {
    const { transaction, documents, runner } = this.parts;
    if (!transaction) return runner.passThrough(documents.get(access, keySegment));
    const key = parseKeySegment(access.resource, keySegment);
    const [found] = await runner.passThrough(transaction.page(access, { key }, 1, 0));
    return found;
  }

  async insert(resource: string, values: JsonRow): Promise<JsonRow | undefined> {
    const access = this.writeAccess(resource, 'INSERT');
    const [row] = await this.parts.runner.passThrough(this.parts.transaction!.write(access, plain(values), 'INSERT', {}));
    return row && this.shown(access, keySegmentOf(keyOfRow(access.resource, row)));
  }

  async update(resource: string, key: KeyValue, changes: JsonRow): Promise<JsonRow | undefined> {
    const access = this.writeAccess(resource, 'UPDATE');
    const keySegment = keySegmentOf(Array.isArray(key) ? key : [key]);
    await this.parts.runner.passThrough(
      this.parts.transaction!.write(access, plain(changes), 'UPDATE', { keySegment, ifMatch: CHECKSUM_OVERRIDE }),
    );
    return this.shown(access, keySegment);
  }

  /** A row just written, as the caller's GET would show it: undefined when it may not read it. */
  private async shown(access: ResourceAccess, keySegment: string): Promise<JsonRow | undefined> {
    if (!access.can('READ')) return undefined;
    const found = await this.row(access, keySegment);
    return found && jsonColumns(access.resource, found.row, found.readable);
  }

  async delete(resource: string, key: KeyValue): Promise<void> {
    const access = this.writeAccess(resource, 'DELETE');
    const keySegment = keySegmentOf(Array.isArray(key) ? key : [key]);
    await this.parts.runner.passThrough(this.parts.transaction!.write(access, {}, 'DELETE', { keySegment, ifMatch: CHECKSUM_OVERRIDE }));
  }

  /** The caller's access for a write: refused without the operation's grant, as RolesGuard refuses the caller's own request. */
  private writeAccess(resource: string, operation: 'INSERT' | 'UPDATE' | 'DELETE'): ResourceAccess {
    this.refuseWhenOver();
    if (!this.writable) {
      throw new HostMisuse(
        `data.${operation.toLowerCase()}("${resource}") on a request that may not write (a GET, or a function without writes: true)`,
      );
    }
    const access = this.access(resource, false, false);
    if (!access.can(operation))
      throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit ${operation} on ${access.resource.name}.`);
    return access;
  }

  /** The caller's access to a table resource (READ needed to see anything: a caller without it is refused, as its own GET). */
  private access(name: string, system: boolean, reads = true): ResourceAccess {
    const table: Resource | undefined = this.parts.registry.find(name);
    if (!table) throw new HostMisuse(`no table resource named "${name}"`);
    if (system) return ResourceAccess.system(table);
    const access = this.parts.security.access(this.parts.principal, table);
    if (reads && !access.can('READ')) throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit READ on ${table.name}.`);
    return access;
  }

  /** Past the time limit the client has had its 503: nothing more is read or written, and a transaction in progress rolls back. */
  private refuseWhenOver(): void {
    if (this.parts.signal.aborted) throw new HostMisuse('the time limit ran out: the data host refuses every call');
  }
}

/** Project code's values: any `@metadata` it copied from a row is left out (the host decides the action and checksum). */
function plain(values: JsonRow): JsonRow {
  // Typed, but project code written in JavaScript (or cast) may pass anything.
  if ((values as unknown) === null || typeof values !== 'object' || Array.isArray(values))
    throw new HostMisuse('a row to write must be an object');
  const { '@metadata': _metadata, ...rest } = values;
  return rest;
}

function keyOfRow(resource: Resource, row: Record<string, unknown>): Array<string | number> {
  return resource.primaryKey.map((c) => row[c.name] as string | number);
}
