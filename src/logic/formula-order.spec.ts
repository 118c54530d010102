import { describe, expect, it } from '@jest/globals';
import { orderFormulas, type OrderedFormula } from './formula-order.js';

const f = (name: string, ...ownUses: string[]): OrderedFormula => ({ attr: { name }, ownUses });
const names = (formulas: OrderedFormula[]): string[] => formulas.map((x) => x.attr.name);

describe('orderFormulas', () => {
  it('keeps declaration order among formulas that do not read each other', () => {
    expect(names(orderFormulas([f('b', 'x'), f('a', 'y'), f('c')]))).toEqual(['b', 'a', 'c']);
  });

  it('puts each formula after the formulas whose attributes it reads, however they were declared', () => {
    expect(names(orderFormulas([f('total', 'net', 'tax'), f('tax', 'net'), f('net', 'qty', 'price')]))).toEqual(['net', 'tax', 'total']);
  });

  it('runs a formula read by several others once, before all of them', () => {
    const ordered = names(orderFormulas([f('d', 'b', 'c'), f('b', 'a'), f('c', 'a'), f('a', 'qty')]));
    expect(ordered).toEqual(['a', 'b', 'c', 'd']);
  });

  it('names the cycle, from where it closes, without the formulas that lead into it', () => {
    expect(() => orderFormulas([f('a', 'b'), f('b', 'c'), f('c', 'b')])).toThrow(/^formula cycle: b -> c -> b$/);
    expect(() => orderFormulas([f('amount', 'product_price'), f('product_price', 'amount')])).toThrow(
      /^formula cycle: amount -> product_price -> amount$/,
    );
  });

  it('refuses a formula that reads its own attribute', () => {
    expect(() => orderFormulas([f('x', 'x')])).toThrow(/^formula cycle: x -> x$/);
  });
});
