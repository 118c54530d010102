import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { keySegment } from '../resources/primary-key.js';
import type { Resource } from '../resources/resource-registry.js';
import type { CanonicalRow } from '../resources/value-codec.js';
import { interpolate } from './rule-values.js';

/**
 * A constraint that failed: 422 / 4220 with the rule's message. Rules run with the system's
 * rights, so the failing row may hold values the caller cannot read (a customer's credit limit
 * behind a Sales rep's line item): the message is rendered for a reader by `messageFor`, with
 * every `{attr}` it may not read shown as `(hidden)`. Until then, every placeholder is hidden.
 */
export class ConstraintFailure extends ApiError {
  constructor(
    readonly resource: Resource,
    readonly row: CanonicalRow,
    private readonly template: string,
  ) {
    super(ErrorCode.RULE_CONSTRAINT, renderMessage(resource, row, template, () => false));
  }

  /** The message as a reader who may see the columns `visible` admits sees it. */
  messageFor(visible: (column: string) => boolean): string {
    return renderMessage(this.resource, this.row, this.template, visible);
  }
}

/** The message, then the row's resource and key unless the message names the key itself (only a key the reader may see). */
function renderMessage(resource: Resource, row: CanonicalRow, template: string, visible: (column: string) => boolean): string {
  const message = interpolate(template, resource, row, visible);
  if (resource.primaryKey.every((c) => template.includes(`{${c.name}}`))) return message;
  return resource.primaryKey.every((c) => visible(c.name)) ? `${message} (${resource.name}/${keySegment(resource, row)})` : `${message} (${resource.name})`;
}
