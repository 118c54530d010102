import { beforeAll, describe, expect, it } from '@jest/globals';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { registryOf } from '../../test/support/registry.js';
import type { ResourceRegistry } from '../data/resource-registry.js';
import { Customer } from '../demo/entities/customer.entity.js';
import { Employee } from '../demo/entities/employee.entity.js';
import { Lineitem } from '../demo/entities/lineitem.entity.js';
import { PaymentAllocation } from '../demo/entities/payment-allocation.entity.js';
import { Payment } from '../demo/entities/payment.entity.js';
import { Product } from '../demo/entities/product.entity.js';
import { PurchaseorderAudit } from '../demo/entities/purchaseorder-audit.entity.js';
import { Purchaseorder } from '../demo/entities/purchaseorder.entity.js';
import { demoRules } from '../demo/rules.js';
import { RuleBank, RuleBankError } from './rule-bank.js';
import {
  after,
  commit,
  commitConstraint,
  constraint,
  copy,
  count,
  formula,
  max,
  min,
  parentCheck,
  sum,
  type Rule,
  type RuleRow,
} from './rule-dsl.js';

/** Two relations from a match to the same parent (home and away club): `via` cannot be left out. */
@Entity({ name: 'club' })
class Club {
  @PrimaryColumn({ type: 'varchar', length: 20 })
  name!: string;

  @Column({ type: 'varchar', length: 20 })
  city!: string;

  @Column({ type: 'integer', default: 0 })
  goals!: number;
}

@Entity({ name: 'match' })
class Match {
  @PrimaryGeneratedColumn({ type: 'integer' })
  match_id!: number;

  @Column({ type: 'varchar', length: 20 })
  home_name!: string;

  @Column({ type: 'varchar', length: 20 })
  away_name!: string;

  @Column({ type: 'integer' })
  home_goals!: number;

  @Column({ type: 'varchar', length: 20, nullable: true })
  venue!: string | null;

  @ManyToOne(() => Club)
  @JoinColumn({ name: 'home_name' })
  home?: Club;

  @ManyToOne(() => Club)
  @JoinColumn({ name: 'away_name' })
  away?: Club;
}

// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- a class that is no entity of the project, on purpose
class Stranger {}

const demoEntities = [Customer, Employee, Lineitem, Product, Purchaseorder, PurchaseorderAudit, Payment, PaymentAllocation];

describe('RuleBank', () => {
  let demo: ResourceRegistry;
  let clubs: ResourceRegistry;
  beforeAll(async () => {
    demo = await registryOf(demoEntities);
    clubs = await registryOf([Club, Match]);
  });

  /** The problems the bank reports for these rules ([] when it accepts them). */
  function problems(rules: Rule[], registry = demo): string[] {
    try {
      new RuleBank(registry, rules);
      return [];
    } catch (error) {
      expect(error).toBeInstanceOf(RuleBankError);
      return (error as RuleBankError).problems;
    }
  }

  // Rules the compiler would refuse are built untyped here, as a JavaScript project (or a cast) would.
  const untyped = (spec: unknown): never => spec as never;

  describe('refuses, naming the rule and the problem', () => {
    it('a rule on a class that is not an entity of the project', () => {
      expect(problems([constraint({ entity: Stranger, check: () => true, message: 'x' })])).toEqual([
        'rule 1 (constraint): Stranger is not an entity of this project',
      ]);
      expect(problems([sum({ parent: Customer, attr: 'balance', children: Stranger, childAttr: untyped('amount') })])).toEqual([
        'rule 1 (sum balance): Stranger is not an entity of this project',
      ]);
    });

    it('an unknown attribute, derived, summed or used', () => {
      expect(problems([formula({ entity: Customer, attr: untyped('nickname'), uses: [], compute: () => 1 })])).toEqual([
        'rule 1 (formula nickname): customer has no attribute "nickname"',
      ]);
      expect(problems([sum({ parent: Customer, attr: 'balance', children: Purchaseorder, childAttr: untyped('amount') })])).toEqual([
        'rule 1 (sum balance): purchaseorder has no attribute "amount"',
      ]);
      expect(problems([formula({ entity: Lineitem, attr: 'amount', uses: untyped(['qty']), compute: () => 1 })])).toEqual([
        'rule 1 (formula amount): lineitem has no attribute "qty"',
      ]);
    });

    it('a parent use through an unknown relation, or of an attribute the parent lacks', () => {
      expect(problems([formula({ entity: Lineitem, attr: 'amount', uses: untyped(['supplier.discount']), compute: () => 1 })])).toEqual([
        'rule 1 (formula amount): lineitem has no many-to-one relation "supplier" (it has: purchaseorder, product)',
      ]);
      expect(
        problems([formula({ entity: Lineitem, attr: 'amount', uses: untyped(['purchaseorder.discount']), compute: () => 1 })]),
      ).toEqual(['rule 1 (formula amount): purchaseorder has no attribute "discount"']);
    });

    it('an unknown relation, or one that leads to another parent', () => {
      expect(problems([copy(untyped({ entity: Lineitem, attr: 'product_price', via: 'supplier', from: 'price' }))])).toEqual([
        'rule 1 (copy product_price): lineitem has no many-to-one relation "supplier" (it has: purchaseorder, product)',
      ]);
      expect(
        problems([
          sum({ parent: Customer, attr: 'balance', children: Purchaseorder, via: untyped('salesrep'), childAttr: 'amount_total' }),
        ]),
      ).toEqual(['rule 1 (sum balance): relation purchaseorder.salesrep leads to employee, not customer']);
      expect(
        problems([copy({ entity: Lineitem, attr: 'product_price', parent: Product, via: untyped('purchaseorder'), from: 'price' })]),
      ).toEqual(['rule 1 (copy product_price): relation lineitem.purchaseorder leads to purchaseorder, not product']);
    });

    it('a derived primary key', () => {
      expect(problems([formula({ entity: Customer, attr: 'name', uses: [], compute: () => 'x' })])).toEqual([
        'rule 1 (formula name): customer.name is a primary key column and cannot be derived',
      ]);
      expect(problems([count({ parent: Purchaseorder, attr: 'order_number', children: Lineitem })])).toEqual([
        'rule 1 (count order_number): purchaseorder.order_number is a primary key column and cannot be derived',
      ]);
    });

    it('an attribute derived twice', () => {
      expect(
        problems([
          copy({ entity: Lineitem, attr: 'product_price', via: 'product', from: 'price' }),
          formula({ entity: Lineitem, attr: 'product_price', uses: ['qty_ordered'], compute: (item) => item.qty_ordered }),
        ]),
      ).toEqual(['rule 2 (formula product_price): lineitem.product_price is already derived by another rule']);
    });

    it('sum, min and max without childAttr (count needs none)', () => {
      const without = { parent: Purchaseorder, attr: 'amount_total', children: Lineitem } as const;
      expect(problems([sum(untyped(without))])).toEqual(['rule 1 (sum amount_total): sum needs childAttr']);
      expect(problems([min(untyped(without))])).toEqual(['rule 1 (min amount_total): min needs childAttr']);
      expect(problems([max(untyped(without))])).toEqual(['rule 1 (max amount_total): max needs childAttr']);
      expect(problems([count(without)])).toEqual([]);
    });

    it('a sum over an attribute that is not numeric', () => {
      expect(problems([sum({ parent: Customer, attr: 'balance', children: Purchaseorder, childAttr: untyped('notes') })])).toEqual([
        'rule 1 (sum balance): sum over purchaseorder.notes, which is not numeric',
      ]);
    });

    it('a formula cycle, naming its path', () => {
      expect(
        problems([
          formula({ entity: Lineitem, attr: 'amount', uses: ['product_price'], compute: (item) => item.product_price }),
          formula({ entity: Lineitem, attr: 'product_price', uses: ['amount'], compute: (item) => item.amount }),
        ]),
      ).toEqual(['lineitem: formula cycle: amount -> product_price -> amount']);
    });
  });

  describe('via left out', () => {
    it('is the one relation that leads to the parent (an order has two relations, one to a customer)', () => {
      const bank = new RuleBank(demo, [sum({ parent: Customer, attr: 'balance', children: Purchaseorder, childAttr: 'amount_total' })]);
      const [feed] = bank.for(demo.get('purchaseorder')).feeds;
      expect(feed!.relation.name).toBe('customer');
      expect(feed!.parent.name).toBe('customer');
    });

    it('is found for a copy that names its parent', () => {
      const bank = new RuleBank(demo, [copy({ entity: Lineitem, attr: 'product_price', parent: Product, from: 'price' })]);
      const [found] = bank.for(demo.get('lineitem')).copies;
      expect(found!.relation.name).toBe('product');
      expect(found!.from.name).toBe('price');
    });

    it('stops the boot when no relation leads to the parent, naming the relations there are', () => {
      expect(problems([sum({ parent: Customer, attr: 'balance', children: Lineitem, childAttr: 'amount' })])).toEqual([
        'rule 1 (sum balance): lineitem has no many-to-one relation to customer (it has: purchaseorder -> purchaseorder, product -> product)',
      ]);
      expect(problems([copy({ entity: Customer, attr: 'credit_limit', parent: Product, from: 'price' })])).toEqual([
        'rule 1 (copy credit_limit): customer has no many-to-one relation to product (it has: none)',
      ]);
    });

    it('stops the boot when several relations lead to the parent, naming them', () => {
      expect(problems([sum({ parent: Club, attr: 'goals', children: Match, childAttr: 'home_goals' })], clubs)).toEqual([
        'rule 1 (sum goals): match has 2 many-to-one relations to club (home, away): name one with via',
      ]);
      expect(problems([copy({ entity: Match, attr: 'venue', parent: Club, from: 'city' })], clubs)).toEqual([
        'rule 1 (copy venue): match has 2 many-to-one relations to club (home, away): name one with via',
      ]);
      expect(
        problems(
          [
            sum({ parent: Club, attr: 'goals', children: Match, via: 'home', childAttr: 'home_goals' }),
            copy({ entity: Match, attr: 'venue', parent: Club, via: 'home', from: 'city' }),
          ],
          clubs,
        ),
      ).toEqual([]);
    });

    it('needs a parent on a copy', () => {
      expect(problems([copy(untyped({ entity: Lineitem, attr: 'product_price', from: 'price' }))])).toEqual([
        'rule 1 (copy product_price): copy needs via or parent',
      ]);
    });
  });

  describe('the dry run of formulas (see formula-dry-run.spec.ts)', () => {
    it('stops the boot when a formula reads an attribute its uses do not list, naming the formula and the attribute', () => {
      expect(
        problems([
          formula({
            entity: Lineitem,
            attr: 'amount',
            uses: ['product_price'],
            compute: untyped((item: RuleRow<Lineitem>) => item.product_price!.times(item.qty_ordered)),
          }),
        ]),
      ).toEqual(['rule 1 (formula amount): formula lineitem.amount reads "qty_ordered", which is not in its uses: ["product_price"]']);
      expect(
        problems([
          formula({
            entity: Lineitem,
            attr: 'amount',
            uses: ['qty_ordered', 'purchaseorder.paid'],
            compute: untyped((item: RuleRow) => [item.qty_ordered, item.purchaseorder?.paid, item.purchaseorder?.notes, item.piad]),
          }),
        ]),
      ).toEqual([
        'rule 1 (formula amount): formula lineitem.amount reads "purchaseorder.notes" and "piad", which are not in its uses: ["qty_ordered","purchaseorder.paid"]',
      ]);
    });

    it('accepts formulas that read exactly their uses', () => {
      expect(problems(demoRules)).toEqual([]);
      expect(
        problems([
          formula({
            entity: Lineitem,
            attr: 'amount',
            uses: ['qty_ordered', 'purchaseorder.paid'],
            compute: (item) => (item.purchaseorder?.paid ? 0 : item.qty_ordered),
          }),
        ]),
      ).toEqual([]);
    });
  });

  describe('parent checks and constraint messages', () => {
    it('resolve the relation of a parent check, named or the only one', () => {
      const bank = new RuleBank(demo, [
        parentCheck({ child: Lineitem, parent: Product, message: 'No product {product_number}' }),
        parentCheck({ child: Purchaseorder, parent: Employee, via: 'salesrep', message: 'No sales rep {salesrep_id}' }),
      ]);
      const checks = (name: string) => bank.for(demo.get(name)).parentChecks.map((c) => [c.relation.name, c.parent.name]);
      expect(checks('lineitem')).toEqual([['product', 'product']]);
      expect(checks('purchaseorder')).toEqual([['salesrep', 'employee']]);
      expect(bank.for(demo.get('lineitem')).isEmpty).toBe(false);
    });

    it('refuse at boot a parent check without a relation, or with a wrong one, and messages they cannot fill', () => {
      expect(
        problems([
          parentCheck({ child: Lineitem, parent: Customer, message: 'x' }),
          parentCheck({ child: Purchaseorder, parent: Employee, via: untyped('customer'), message: 'x' }),
          parentCheck({ child: Lineitem, parent: Product, message: 'No product {product_number|date}' }),
          parentCheck({ child: Stranger, parent: Product, message: 'x' }),
        ]),
      ).toEqual([
        'rule 1 (parentCheck): lineitem has no many-to-one relation to customer (it has: purchaseorder -> purchaseorder, product -> product)',
        'rule 2 (parentCheck): relation purchaseorder.customer leads to customer, not employee',
        'rule 3 (parentCheck): message placeholder {product_number|date}: format "date" applies to date and date-time columns; product_number is integer',
        'rule 4 (parentCheck): Stranger is not an entity of this project',
      ]);
    });

    it('refuse at boot unknown formats, formats of the wrong kind, and old. or formats on unknown attributes', () => {
      const check = () => true;
      expect(
        problems([
          constraint({ entity: Customer, check, message: '{balance|euro} {credit_limit|number:21}' }),
          commitConstraint({ entity: Customer, check, message: '{name|money} {old.balanse}' }),
          constraint({ entity: Customer, check, message: '{balance|money:EURO$} {nickname|number}' }),
          constraint({ entity: PurchaseorderAudit, check, message: '{audit_time|date:YYYY-MM-DD hh}' }),
        ]),
      ).toEqual([
        'rule 1 (constraint): message placeholder {balance|euro}: unknown format "euro" (known: number, money, date); message placeholder {credit_limit|number:21}: "number:21": places must be 0 to 20',
        'rule 2 (commitConstraint): message placeholder {name|money}: format "money" applies to integer and decimal columns; name is string; message placeholder {old.balanse}: customer has no attribute "balanse"',
        'rule 3 (constraint): message placeholder {balance|money:EURO$}: "money:EURO$": the symbol must be 1 to 4 characters, none of {}|:; message placeholder {nickname|number}: customer has no attribute "nickname"',
        'rule 4 (constraint): message placeholder {audit_time|date:YYYY-MM-DD hh}: "date:YYYY-MM-DD hh": a pattern is YYYY, MM, DD, HH, mm, ss and the separators - / . , : space T',
      ]);
      // A plain {word} that names no attribute stays as written, as before formats.
      expect(problems([constraint({ entity: Customer, check, message: 'see {manual} for {balance|number:2}' })])).toEqual([]);
    });
  });

  it('reports every problem of every rule in one error', () => {
    let error: unknown;
    try {
      new RuleBank(demo, [
        formula({ entity: Customer, attr: untyped('nickname'), uses: [], compute: () => 1 }),
        formula({ entity: Lineitem, attr: 'amount', uses: untyped(['supplier.discount']), compute: () => 1 }),
        formula({ entity: Customer, attr: 'name', uses: [], compute: () => 'x' }),
        formula({ entity: Purchaseorder, attr: 'notes', uses: [], compute: untyped((order: RuleRow) => order.paid) }),
        formula({ entity: Lineitem, attr: 'product_price', uses: ['qty_ordered'], compute: (item) => item.qty_ordered }),
        formula({ entity: Lineitem, attr: 'qty_ordered', uses: ['product_price'], compute: (item) => item.product_price }),
      ]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RuleBankError);
    expect((error as RuleBankError).message).toBe(
      [
        'The rules in the project are invalid:',
        '  - rule 1 (formula nickname): customer has no attribute "nickname"',
        '  - rule 2 (formula amount): lineitem has no many-to-one relation "supplier" (it has: purchaseorder, product)',
        '  - rule 3 (formula name): customer.name is a primary key column and cannot be derived',
        '  - rule 4 (formula notes): formula purchaseorder.notes reads "paid", which is not in its uses: []',
        '  - lineitem: formula cycle: product_price -> qty_ordered -> product_price',
      ].join('\n'),
    );
  });

  describe('a valid bank', () => {
    let bank: RuleBank;
    beforeAll(() => {
      bank = new RuleBank(demo, [
        // Declared before the demo's formula for amount, which it reads: the bank orders them.
        formula({
          entity: Lineitem,
          attr: 'product_number',
          uses: ['amount', 'purchaseorder.paid'],
          compute: (item) => (item.purchaseorder?.paid ? 1 : 2),
        }),
        ...demoRules,
        formula({
          entity: Purchaseorder,
          attr: 'notes',
          uses: ['customer_name', 'paid'],
          compute: (o) => `${o.customer_name}${o.paid ? ' (paid)' : ''}`,
        }),
        after({ entity: Customer, run: () => undefined }),
        commit({ run: () => undefined }),
      ]);
    });
    const rulesOf = (name: string) => bank.for(demo.get(name));

    it('knows which attributes rules derive (clients may not write them)', () => {
      expect([...rulesOf('customer').derived]).toEqual(['balance']);
      expect([...rulesOf('purchaseorder').derived].sort()).toEqual(['amount_owed', 'amount_paid', 'amount_total', 'notes']);
      expect([...rulesOf('lineitem').derived].sort()).toEqual(['amount', 'product_number', 'product_price']);
      expect(rulesOf('product').derived.size).toBe(0);
    });

    it('files each aggregate under the child that feeds it, with its relation and attributes', () => {
      expect(
        rulesOf('purchaseorder').feeds.map((f) => [f.rule.kind, f.parent.name, f.attr.name, f.relation.name, f.childAttr?.name]),
      ).toEqual([['sum', 'customer', 'balance', 'customer', 'amount_owed']]);
      expect(rulesOf('lineitem').feeds.map((f) => [f.parent.name, f.attr.name, f.relation.name, f.childAttr?.name])).toEqual([
        ['purchaseorder', 'amount_total', 'purchaseorder', 'amount'],
      ]);
      expect(rulesOf('customer').feeds).toEqual([]);
    });

    it('files a formula that reads a parent attribute under the parent too', () => {
      const [reader] = rulesOf('purchaseorder').readByChildren;
      expect([reader!.resource.name, reader!.attr.name]).toEqual(['lineitem', 'product_number']);
      expect(reader!.parentUses.map((u) => [u.relation.name, u.parent.name, u.attr])).toEqual([['purchaseorder', 'purchaseorder', 'paid']]);
      expect(reader!.ownUses).toEqual(['amount']);
      expect(rulesOf('product').readByChildren).toEqual([]);
    });

    it('puts a formula after the formulas whose attributes it reads', () => {
      expect(rulesOf('lineitem').formulas.map((f) => f.attr.name)).toEqual(['amount', 'product_number']);
    });

    it('keeps copies, constraints and events with their entity, commit rules with the bank', () => {
      expect(rulesOf('lineitem').copies.map((c) => [c.attr.name, c.relation.name, c.from.name])).toEqual([
        ['product_price', 'product', 'price'],
      ]);
      expect(rulesOf('customer').constraints).toHaveLength(2);
      expect(rulesOf('customer').after).toHaveLength(1);
      expect(rulesOf('purchaseorder').after).toHaveLength(1);
      expect(bank.commitRules).toHaveLength(1);
      expect(rulesOf('employee').isEmpty).toBe(true);
      expect(rulesOf('customer').isEmpty).toBe(false);
    });
  });
});
