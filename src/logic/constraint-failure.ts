import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { keySegment } from '../data/primary-key.js';
import type { Resource } from '../data/resource-registry.js';
import type { CanonicalRow } from '../data/value-codec.js';
import { messageColumns, namesCurrent, renderMessage } from './message-format.js';

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
    /** The row before the change, for `{old.attr}` placeholders (null on an insert). */
    private readonly old: CanonicalRow | null = null,
  ) {
    super(
      ErrorCode.RULE_CONSTRAINT,
      renderFor(resource, row, old, template, () => false),
    );
  }

  /** The message as a reader who may see the columns `visible` admits sees it. */
  messageFor(visible: (column: string) => boolean): string {
    return renderFor(this.resource, this.row, this.old, this.template, visible);
  }
}

/**
 * The message, then the row's resource and key unless the message names the key itself (only a
 * key the reader may see). When the message names any column the reader may not see, every
 * value in it is hidden: the verdict alone is inherent in the rule, but a value shown next to a
 * hidden one brackets it (a balance that just exceeds the credit limit, found by adding one line
 * item at a time, pins the limit).
 */
function renderFor(
  resource: Resource,
  row: CanonicalRow,
  old: CanonicalRow | null,
  template: string,
  visible: (column: string) => boolean,
): string {
  const namesHidden = messageColumns(resource, template).some((name) => !visible(name));
  const message = renderMessage(template, resource, row, old, namesHidden ? () => false : visible);
  if (resource.primaryKey.every((c) => namesCurrent(template, c.name))) return message;
  // A row refused before its insert (a parent check) may have no key yet: the database generates it.
  const keyKnown = resource.primaryKey.every((c) => (row[c.name] ?? null) !== null);
  return keyKnown && resource.primaryKey.every((c) => visible(c.name))
    ? `${message} (${resource.name}/${keySegment(resource, row)})`
    : `${message} (${resource.name})`;
}
