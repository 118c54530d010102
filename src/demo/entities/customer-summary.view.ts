import { ViewEntity } from 'typeorm';
import type { DecimalString } from '../../data/decimal-string.js';
import { ViewColumn } from '../../data/view-column.js';
import { decimalColumn } from './decimal-column.js';

/**
 * The `customer_summary` view (made by migration 1763900005000): one row per customer, read-only.
 * `synchronize: false`: the migration makes it, never TypeORM. Its key is `name` (a customer's,
 * unique in the view as in `customer`), so each row has an href, a checksum and a URL of its own.
 * Each column says its type: the view's expressions have none Tessera could rely on everywhere.
 */
@ViewEntity({ name: 'customer_summary', synchronize: false })
export class CustomerSummary {
  @ViewColumn({ type: 'varchar', length: 30, primary: true })
  name!: string;

  @ViewColumn({ ...decimalColumn })
  balance!: DecimalString;

  @ViewColumn({ ...decimalColumn })
  credit_limit!: DecimalString;

  /** The customer's orders. */
  @ViewColumn({ type: 'integer' })
  order_count!: number;

  /** Those not yet paid. */
  @ViewColumn({ type: 'integer' })
  unpaid_orders!: number;

  /** Σ of the unpaid orders' `amount_owed`: what `balance` holds too. */
  @ViewColumn({ ...decimalColumn })
  unpaid_total!: DecimalString;
}
