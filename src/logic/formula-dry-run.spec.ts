import { beforeAll, describe, expect, it } from '@jest/globals';
import { registryOf } from '../../test/support/registry.js';
import type { ResourceRegistry } from '../data/resource-registry.js';
import { Customer } from '../demo/entities/customer.entity.js';
import { Employee } from '../demo/entities/employee.entity.js';
import { Lineitem } from '../demo/entities/lineitem.entity.js';
import { Product } from '../demo/entities/product.entity.js';
import { Purchaseorder } from '../demo/entities/purchaseorder.entity.js';
import { undeclaredReads } from './formula-dry-run.js';
import { D, type RuleRow } from './rule-dsl.js';

describe('undeclaredReads (the formula dry run)', () => {
  let registry: ResourceRegistry;
  beforeAll(async () => {
    registry = await registryOf([Customer, Employee, Lineitem, Product, Purchaseorder]);
  });

  /** What a line-item formula with these uses reads beyond them. */
  function readsOf(uses: string[], compute: (item: RuleRow, old: RuleRow | null) => unknown): string[] {
    const resource = registry.get('lineitem');
    const parentUses = uses
      .filter((u) => u.includes('.'))
      .map((use) => {
        const [name, attr] = use.split('.') as [string, string];
        const relation = resource.parents.find((p) => p.name === name)!;
        return { relation, parent: registry.get(relation.parent), attr };
      });
    return undeclaredReads({ resource, ownUses: uses.filter((u) => !u.includes('.')), parentUses, rule: { compute } });
  }

  it('is empty for a formula that reads only its uses', () => {
    expect(readsOf(['qty_ordered', 'product_price'], (item) => D(item.product_price).times(item.qty_ordered))).toEqual([]);
    expect(readsOf(['qty_ordered', 'purchaseorder.paid'], (item) => (item.purchaseorder?.paid ? 0 : item.qty_ordered))).toEqual([]);
  });

  it('names each undeclared read once: an own attribute, a parent attribute, a relation not used, a misspelt name', () => {
    const reads = readsOf(['qty_ordered', 'purchaseorder.paid'], (item) => [
      item.amount,
      item.amount,
      item.purchaseorder?.paid,
      item.purchaseorder?.notes,
      item.product?.price,
      item.piad,
    ]);
    expect(reads).toEqual(['amount', 'purchaseorder.notes', 'product', 'piad']);
  });

  it('gives typical values: Decimals, numbers, numeric strings, booleans, ISO dates, and parents', () => {
    const seen: unknown[] = [];
    readsOf(['qty_ordered', 'product_price', 'purchaseorder.paid', 'purchaseorder.customer_name'], (item) => {
      seen.push(item.qty_ordered, item.product_price, item.purchaseorder?.paid, item.purchaseorder?.customer_name);
    });
    // Each sample row twice: as on insert (no old row) and as on update.
    const typical = [1, D(1), true, '1'];
    const zeros = [0, D(0), false, ''];
    const nulls = [null, null, undefined, undefined];
    expect(seen).toEqual([...typical, ...typical, ...zeros, ...zeros, ...nulls, ...nulls]);
  });

  it('runs compute without an old row and with one, and holds old to the uses too', () => {
    const olds: unknown[] = [];
    expect(
      readsOf(['qty_ordered'], (item, old) => {
        olds.push(old === null ? null : old.qty_ordered);
        return old === null ? item.qty_ordered : D(item.qty_ordered).minus(old.qty_ordered);
      }),
    ).toEqual([]);
    expect(olds).toEqual([null, 1, null, 0, null, null]);
    expect(readsOf(['qty_ordered'], (_item, old) => old?.product_price ?? old?.purchaseorder)).toEqual([
      'old.product_price',
      'old.purchaseorder',
    ]);
  });

  it('sees reads that only zeros, false or nulls lead to', () => {
    expect(readsOf(['qty_ordered'], (item) => (item.qty_ordered === 0 ? item.product_price : 1))).toEqual(['product_price']);
    expect(readsOf(['purchaseorder.paid'], (item) => (item.purchaseorder === null ? item.qty_ordered : item.purchaseorder.paid))).toEqual([
      'qty_ordered',
    ]);
    expect(readsOf(['purchaseorder.paid'], (item) => (item.purchaseorder?.paid === false ? item.purchaseorder.notes : 1))).toEqual([
      'purchaseorder.notes',
    ]);
  });

  it('ignores what compute throws on sample values, but counts what it read before', () => {
    expect(
      readsOf(['qty_ordered'], (item) => {
        throw new Error(`no ${item.qty_ordered}`);
      }),
    ).toEqual([]);
    expect(readsOf(['qty_ordered'], (item) => D(item.qty_ordered).div(item.amount.minus(1)))).toEqual(['amount']);
    expect(
      readsOf([], (item) => {
        // eslint-disable-next-line @typescript-eslint/no-meaningless-void-operator -- reading the attribute is the point
        void item.amount;
        throw new Error('x');
      }),
    ).toEqual(['amount']);
  });

  it('does not count what JavaScript and decimal.js look up on the row itself', () => {
    expect(
      readsOf(['qty_ordered'], (item) => {
        // eslint-disable-next-line @typescript-eslint/no-meaningless-void-operator, @typescript-eslint/no-base-to-string, no-prototype-builtins -- what JavaScript looks up on any object is exactly what is probed
        void `${String(item)}${item.toString()}${item.valueOf() === item}${item.hasOwnProperty('qty_ordered')}`;
        void Promise.resolve(item); // looks up `then`
        void JSON.stringify([item.qty_ordered]);
        return item.qty_ordered;
      }),
    ).toEqual([]);
    // decimal.js asks any object for `toStringTag`, and renders it into its error message.
    expect(readsOf([], (item) => D(item as never))).toEqual([]);
    expect(readsOf([], (item) => item[Symbol.iterator as never])).toEqual([]);
  });

  it('counts a column even when its name is one JavaScript looks up too', async () => {
    const { Column, Entity, PrimaryGeneratedColumn } = await import('typeorm');
    @Entity({ name: 'promise_like' })
    class PromiseLike {
      @PrimaryGeneratedColumn({ type: 'integer' })
      id!: number;

      @Column({ type: 'varchar', length: 10 })
      then!: string;
    }
    const resource = (await registryOf([PromiseLike])).get('promise_like');
    expect(undeclaredReads({ resource, ownUses: ['id'], parentUses: [], rule: { compute: (row) => row.then } })).toEqual(['then']);
  });

  it('leaves a rejected promise from compute handled', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      expect(
        readsOf(['qty_ordered'], async (item) => {
          throw new Error(`no ${item.qty_ordered}`);
        }),
      ).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', listener);
    }
    expect(unhandled).toEqual([]);
  });
});
