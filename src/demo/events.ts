import type { ApiEventsDefinition, JsonValue } from '../extensions/events/api-event-definition.js';
import { Refusal } from '../extensions/refusal.js';
import type { Customer } from './entities/customer.entity.js';
import type { Lineitem } from './entities/lineitem.entity.js';

/** The most units one line item may order: a request asking more is refused before anything is written. */
const MAX_UNITS = 1000;

/** How close to its credit limit a customer's balance is, as v2 shows it (`balance_status`). */
function balanceStatus(customer: Partial<Record<keyof Customer, JsonValue>>): string | undefined {
  const balance = Number(customer.balance);
  const limit = Number(customer.credit_limit);
  if (customer.balance === undefined || customer.credit_limit === undefined || !Number.isFinite(balance) || !Number.isFinite(limit)) {
    return undefined; // the caller may not read one of them: nothing to say
  }
  if (balance > limit) return 'over limit';
  return balance >= limit * 0.9 ? 'near limit' : 'ok';
}

/**
 * The demo's request and response events (README, "Request and response events"): a request event refuses a line
 * item of more than 1,000 units in every version, and a response event gives v2's customer objects a
 * `balance_status` (v1's keep the shape they always had).
 */
export const demoEvents: ApiEventsDefinition = {
  request: [
    {
      name: 'limitLineitemQuantity',
      resources: ['lineitem'],
      methods: ['POST', 'PUT'],
      run: ({ body }) => {
        for (const item of Array.isArray(body) ? body : [body]) {
          const quantity = (item as Partial<Record<keyof Lineitem, JsonValue>> | null)?.qty_ordered;
          if (quantity !== undefined && quantity !== null && Number(quantity) > MAX_UNITS) {
            throw new Refusal(422, `A line item may not order more than ${MAX_UNITS.toLocaleString('en')} units.`);
          }
        }
      },
    },
  ],
  response: [
    {
      name: 'customerBalanceStatus',
      resources: ['customer'],
      methods: ['GET'],
      versions: ['v2'],
      adds: ['balance_status'],
      run: ({ answer }) => {
        for (const customer of Array.isArray(answer) ? answer : []) {
          if (customer === null || typeof customer !== 'object' || Array.isArray(customer)) continue;
          const status = balanceStatus(customer);
          if (status !== undefined) customer.balance_status = status;
        }
      },
    },
  ],
};
