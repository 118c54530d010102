import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Decimal } from 'decimal.js';
import { registryOf } from '../../test/support/registry.js';
import { Customer } from '../demo/entities/customer.entity.js';
import { Employee } from '../demo/entities/employee.entity.js';
import { Lineitem } from '../demo/entities/lineitem.entity.js';
import { Product } from '../demo/entities/product.entity.js';
import { PurchaseorderAudit } from '../demo/entities/purchaseorder-audit.entity.js';
import { Purchaseorder } from '../demo/entities/purchaseorder.entity.js';
import { RuleBank } from './rule-bank.js';
import { after, constraint, copy, count, D, early, formula, max, parentCheck, sum, type Rule, type RuleRow } from './rule-dsl.js';
import { toRuleRow } from './rule-values.js';

/*
 * The DSL's types, checked by `npm run typecheck` (which covers specs): each `@ts-expect-error`
 * line must be a compile error, or the check fails. Jest runs the rest: the same wrong rules
 * are refused by the rule bank at boot where it can see them, and the typed rows are what the
 * engine passes.
 */

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the standard exact-type-equality trick: X exists only to compare A and B
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Equal<A, B>): Equal<A, B> => proof;

const demoEntities = [Customer, Employee, Lineitem, Product, Purchaseorder, PurchaseorderAudit];

describe('the rule DSL types', () => {
  let registry: Awaited<ReturnType<typeof registryOf>>;
  beforeAll(async () => {
    registry = await registryOf(demoEntities);
  });
  const bankError = (rule: Rule): string => {
    try {
      new RuleBank(registry, [rule]);
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('types a rule row from the entity: decimals Decimal, dates ISO strings, nullable | null, no relations', () => {
    expect(same<RuleRow<Customer>, { name: string; balance: Decimal; credit_limit: Decimal }>(true)).toBe(true);
    expect(same<RuleRow<PurchaseorderAudit>['audit_time'], string | null>(true)).toBe(true);
    expect(same<RuleRow<PurchaseorderAudit>['amount_total'], Decimal | null>(true)).toBe(true);
    expect(same<RuleRow<Purchaseorder>['paid'], boolean>(true)).toBe(true);
    expect(same<RuleRow<Purchaseorder>['salesrep_id'], number | null>(true)).toBe(true);
    expect(
      same<keyof RuleRow<Lineitem>, 'lineitem_id' | 'order_number' | 'product_number' | 'qty_ordered' | 'product_price' | 'amount'>(true),
    ).toBe(true);
    // Untyped, for the engine and for rows of any resource.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the untyped row is `any`-valued by design
    expect(same<RuleRow, Record<string, any>>(true)).toBe(true);
  });

  it('hands rules the values the types promise', () => {
    const customers = registry.get('customer');
    const seen: unknown[] = [];
    const rule = constraint({
      entity: Customer,
      message: 'x',
      check: (c) => {
        seen.push(c.balance, c.name);
        return c.balance.lte(c.credit_limit);
      },
    });
    expect(rule.check(toRuleRow(customers, { name: 'Alpha', balance: '10.0000', credit_limit: '9.0000' }), null)).toBe(false);
    expect(D(seen[0] as Decimal).equals(10)).toBe(true);
    expect(seen[1]).toBe('Alpha');
  });

  it('accepts well-named rules, with via left out where one relation leads to the parent', () => {
    const rules: Rule[] = [
      sum({ parent: Customer, attr: 'balance', children: Purchaseorder, childAttr: 'amount_total', where: (order) => !order.paid }),
      count({
        parent: Purchaseorder,
        attr: 'amount_total',
        children: Lineitem,
        via: 'purchaseorder',
        where: (item) => item.qty_ordered > 1,
      }),
      copy({ entity: Lineitem, attr: 'product_price', via: 'product', from: 'price' }),
      formula({
        entity: Lineitem,
        attr: 'amount',
        uses: ['qty_ordered', 'purchaseorder.paid'],
        compute: (item) => (item.purchaseorder?.paid ? 0 : item.qty_ordered),
      }),
      early({
        entity: Purchaseorder,
        run: (event) => {
          if (event.changed('notes')) event.row.notes = event.row.notes?.trim() ?? null;
        },
      }),
      after({
        entity: Purchaseorder,
        on: ['UPDATE'],
        run: async (event) => {
          const _audit = await event.insert(PurchaseorderAudit, {
            order_number: event.row.order_number,
            amount_total: event.old!.amount_total,
            audit_time: new Date(),
          });
          expect(same<typeof _audit.amount_total, Decimal | null>(true)).toBe(true);
        },
      }),
    ];
    expect(() => new RuleBank(registry, rules)).not.toThrow();
  });

  it('types old like the row in constraints (null on insert) and as the uses in formulas', () => {
    const customers = registry.get('customer');
    const cut = constraint({
      entity: Customer,
      message: 'Credit limit {old.credit_limit|money:$} to {credit_limit|money:$}',
      check: (c, old) => {
        expect(same<typeof old, RuleRow<Customer> | null>(true)).toBe(true);
        return old === null || c.credit_limit.gte(old.credit_limit.div(2));
      },
    });
    const row = (limit: string) => toRuleRow(customers, { name: 'Alpha', balance: '0.0000', credit_limit: limit });
    expect(cut.check(row('400.0000'), row('1000.0000'))).toBe(false);
    expect(cut.check(row('500.0000'), row('1000.0000'))).toBe(true);
    expect(cut.check(row('1.0000'), null)).toBe(true);
    const grows = formula({
      entity: Lineitem,
      attr: 'amount',
      uses: ['qty_ordered', 'product_price'],
      compute: (item, old) => {
        expect(same<NonNullable<typeof old>, { readonly qty_ordered: number; readonly product_price: Decimal | null }>(true)).toBe(true);
        return old === null ? item.qty_ordered : item.qty_ordered - old.qty_ordered;
      },
    });
    expect(bankError(cut)).toBe('accepted');
    expect(bankError(grows)).toBe('accepted');
    expect(bankError(parentCheck({ child: Lineitem, parent: Product, message: 'No product {product_number}' }))).toBe('accepted');
  });

  it('refuses misspelt names and wrong types at compile time, and the bank refuses them at boot', () => {
    // @ts-expect-error `piad` is no attribute of a purchase order
    constraint({ entity: Purchaseorder, message: 'x', check: (order) => order.piad !== true });
    // @ts-expect-error a Decimal is no number: arithmetic goes through decimal.js
    constraint({ entity: Customer, message: 'x', check: (c) => c.balance * 2 < 100 });
    // @ts-expect-error old may be null (an insert)
    constraint({ entity: Customer, message: 'x', check: (c, old) => c.balance.lte(old.balance) });
    // @ts-expect-error old has the attributes of the row
    constraint({ entity: Customer, message: 'x', check: (_c, old) => old?.balanse !== null });
    // prettier-ignore
    // @ts-expect-error a formula's old has only what its uses list, and the dry run sees the read too
    expect(bankError(formula({ entity: Lineitem, attr: 'amount', uses: ['qty_ordered'], compute: (_item, old) => D(old?.product_price) }))).toMatch(/reads "old.product_price"/);
    // @ts-expect-error a parent check's via leads from the child to the parent
    parentCheck({ child: Lineitem, parent: Product, via: 'purchaseorder', message: 'x' });
    expect(bankError(parentCheck({ child: Lineitem, parent: Customer, message: 'x' }))).toMatch(
      /lineitem has no many-to-one relation to customer/,
    );
    expect(bankError(constraint({ entity: Customer, message: '{balance|euro}', check: () => true }))).toMatch(
      /message placeholder \{balance\|euro\}: unknown format "euro" \(known: number, money, date\)/,
    );

    // @ts-expect-error `piad` again, in a formula: the dry run at boot sees it too
    expect(bankError(formula({ entity: Purchaseorder, attr: 'notes', uses: ['paid'], compute: (order) => order.piad }))).toMatch(
      /reads "piad"/,
    );
    // prettier-ignore
    // @ts-expect-error a formula sees only what its uses list
    expect(bankError(formula({ entity: Lineitem, attr: 'amount', uses: ['qty_ordered'], compute: (item) => D(item.product_price) }))).toMatch(/reads "product_price"/);
    // @ts-expect-error uses: no such attribute
    expect(bankError(formula({ entity: Lineitem, attr: 'amount', uses: ['qty_orderd'], compute: () => 1 }))).toMatch(
      /lineitem has no attribute "qty_orderd"/,
    );
    // @ts-expect-error uses: no such relation
    expect(bankError(formula({ entity: Lineitem, attr: 'amount', uses: ['supplier.discount'], compute: () => 1 }))).toMatch(
      /no many-to-one relation "supplier"/,
    );
    // @ts-expect-error uses: the parent has no such attribute
    expect(bankError(formula({ entity: Lineitem, attr: 'amount', uses: ['purchaseorder.piad'], compute: () => 1 }))).toMatch(
      /purchaseorder has no attribute "piad"/,
    );
    // @ts-expect-error a relation is not an attribute
    expect(bankError(formula({ entity: Lineitem, attr: 'purchaseorder', uses: [], compute: () => 1 }))).toMatch(
      /lineitem has no attribute "purchaseorder"/,
    );

    // @ts-expect-error copy.from is an attribute of the parent reached by via (a product has no amount_total)
    expect(bankError(copy({ entity: Lineitem, attr: 'product_price', via: 'product', from: 'amount_total' }))).toMatch(
      /product has no attribute "amount_total"/,
    );
    // @ts-expect-error via is a many-to-one relation property
    expect(bankError(copy({ entity: Lineitem, attr: 'product_price', via: 'qty_ordered', from: 'price' }))).toMatch(
      /no many-to-one relation "qty_ordered"/,
    );
    // @ts-expect-error copy needs via or parent
    expect(bankError(copy({ entity: Lineitem, attr: 'product_price', from: 'price' }))).toMatch(/copy needs via or parent/);

    // prettier-ignore
    // @ts-expect-error via leads to an employee, not a customer
    expect(bankError(sum({ parent: Customer, attr: 'balance', children: Purchaseorder, via: 'salesrep', childAttr: 'amount_total' }))).toMatch(/leads to employee, not customer/);
    // @ts-expect-error a sum is over a numeric attribute
    expect(bankError(sum({ parent: Customer, attr: 'balance', children: Purchaseorder, childAttr: 'notes' }))).toMatch(/not numeric/);
    // @ts-expect-error the where sees a purchase order
    sum({ parent: Customer, attr: 'balance', children: Purchaseorder, childAttr: 'amount_total', where: (order) => order.qty_ordered > 0 });
    // @ts-expect-error max needs childAttr
    expect(bankError(max({ parent: Customer, attr: 'balance', children: Purchaseorder }))).toMatch(/max needs childAttr/);

    // @ts-expect-error changed() takes an attribute of the row
    after({ entity: Purchaseorder, run: (event) => event.changed('piad') });
    after({
      entity: Purchaseorder,
      run: async (event) => {
        // @ts-expect-error insert() takes attributes of the inserted entity
        await event.insert(PurchaseorderAudit, { order_numbr: 1 });
      },
    });
    after({
      entity: Purchaseorder,
      run: async (event) => {
        // @ts-expect-error insert() takes values of the column's kind
        await event.insert(PurchaseorderAudit, { paid: 'yes' });
      },
    });
  });
});
