import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { keySegment } from '../data/primary-key.js';
import type { Resource } from '../data/resource-registry.js';
import type { CanonicalRow } from '../data/value-codec.js';
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
    super(
      ErrorCode.RULE_CONSTRAINT,
      renderMessage(resource, row, template, () => false),
    );
  }

  /** The message as a reader who may see the columns `visible` admits sees it. */
  messageFor(visible: (column: string) => boolean): string {
    return renderMessage(this.resource, this.row, this.template, visible);
  }
}

/**
 * The message, then the row's resource and key unless the message names the key itself (only a
 * key the reader may see). When the message names any column the reader may not see, every
 * value in it is hidden: the verdict alone is inherent in the rule, but a value shown next to a
 * hidden one brackets it (a balance that just exceeds the credit limit, found by adding one line
 * item at a time, pins the limit).
 */
function renderMessage(resource: Resource, row: CanonicalRow, template: string, visible: (column: string) => boolean): string {
  const namesHidden = placeholders(template).some((name) => resource.columnsByName.has(name) && !visible(name));
  const message = interpolate(template, resource, row, namesHidden ? () => false : visible);
  if (resource.primaryKey.every((c) => template.includes(`{${c.name}}`))) return message;
  return resource.primaryKey.every((c) => visible(c.name))
    ? `${message} (${resource.name}/${keySegment(resource, row)})`
    : `${message} (${resource.name})`;
}

function placeholders(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
}
