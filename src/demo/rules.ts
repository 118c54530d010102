import { Decimal } from 'decimal.js';
import { after, allocate, constraint, copy, D, early, formula, sum, type Rule } from '../logic/rule-dsl.js';
import { Customer } from './entities/customer.entity.js';
import { Lineitem } from './entities/lineitem.entity.js';
import { PaymentAllocation } from './entities/payment-allocation.entity.js';
import { Payment } from './entities/payment.entity.js';
import { PurchaseorderAudit } from './entities/purchaseorder-audit.entity.js';
import { Purchaseorder } from './entities/purchaseorder.entity.js';

/**
 * The demo's business logic: the classic "check credit". The sums leave `via` out: one
 * relation leads from an order to its customer (`customer`; `salesrep` leads to an employee)
 * and one from a line item to its order; the copy names `product`, the relation it copies through.
 * A payment is allocated to the customer's unpaid orders, oldest first; each allocation is summed
 * back to its order (`amount_paid`, and so `amount_owed`, which the balance sums) and its payment,
 * and an order is paid once fully allocated.
 * The last constraint compares the credit limit with its value before the change (`old`).
 */
export const demoRules: Rule[] = [
  sum({
    parent: Customer,
    attr: 'balance',
    children: Purchaseorder,
    childAttr: 'amount_owed',
    where: (order) => !order.paid,
  }),
  constraint({
    entity: Customer,
    check: (customer) => D(customer.balance).lte(D(customer.credit_limit)),
    message: "Customer {name}'s balance {balance} exceeds their credit limit {credit_limit}",
  }),
  sum({
    parent: Purchaseorder,
    attr: 'amount_total',
    children: Lineitem,
    childAttr: 'amount',
  }),
  copy({ entity: Lineitem, attr: 'product_price', via: 'product', from: 'price' }),
  formula({
    entity: Lineitem,
    attr: 'amount',
    uses: ['qty_ordered', 'product_price'],
    compute: (item) => D(item.product_price).times(item.qty_ordered),
  }),
  sum({ parent: Purchaseorder, attr: 'amount_paid', children: PaymentAllocation, childAttr: 'amount' }),
  formula({
    entity: Purchaseorder,
    attr: 'amount_owed',
    uses: ['amount_total', 'amount_paid'],
    compute: (order) => D(order.amount_total).minus(D(order.amount_paid)),
  }),
  early({
    entity: Purchaseorder,
    on: ['UPDATE'],
    run: (event) => {
      // Paid once its allocations cover it; unpaid again when an allocation goes (its payment deleted).
      if (!event.changed('amount_paid')) return;
      const { amount_paid: paid, amount_total: total } = event.row;
      event.row.paid = paid.gt(0) && paid.gte(total);
    },
  }),
  sum({ parent: Payment, attr: 'amount_allocated', children: PaymentAllocation, childAttr: 'amount' }),
  formula({
    entity: Payment,
    attr: 'amount_unallocated',
    uses: ['amount', 'amount_allocated'],
    compute: (payment) => D(payment.amount).minus(D(payment.amount_allocated)),
  }),
  allocate({
    provider: Payment,
    available: 'amount_unallocated',
    recipients: {
      entity: Purchaseorder,
      where: (payment) => ({ customer_name: payment.customer_name, paid: false }),
      order: ['order_number'],
    },
    allocation: PaymentAllocation,
    amount: { attr: 'amount', compute: (available, order) => Decimal.min(available, D(order.amount_owed)) },
  }),
  after({
    entity: Purchaseorder,
    on: ['UPDATE'],
    run: async (event) => {
      if (!event.changed('amount_total')) return;
      const old = event.old!;
      await event.insert(PurchaseorderAudit, {
        order_number: old.order_number,
        amount_total: old.amount_total,
        paid: old.paid,
        notes: old.notes,
        customer_name: old.customer_name,
        audit_time: new Date().toISOString(),
      });
    },
  }),
  // With `old`: a customer who owes money may not lose more than half their credit limit in
  // one change (last in the list, so that the rules above keep their numbers).
  constraint({
    entity: Customer,
    check: (customer, old) => old === null || D(customer.balance).isZero() || D(customer.credit_limit).gte(D(old.credit_limit).div(2)),
    message:
      "Customer {name}'s credit limit may not be cut by more than half while they owe {balance|money:$}: {old.credit_limit|money:$} to {credit_limit|money:$}",
  }),
];
