import { NameLookup } from './name-lookup.js';

describe('NameLookup', () => {
  it('finds a name in any case while only one holds it', () => {
    const names = new NameLookup<number>();
    names.set('customer', 1);
    names.set('main:customer', 1);
    expect([names.get('customer'), names.get('CUSTOMER'), names.get('Main:Customer')]).toEqual([1, 1, 1]);
    expect(names.isAmbiguous('Customer')).toBe(false);
  });

  it('finds names that differ only in case by their exact spelling alone', () => {
    const names = new NameLookup<string>();
    names.set('Customer', 'upper');
    names.set('customer', 'lower');
    expect([names.get('Customer'), names.get('customer'), names.get('CUSTOMER')]).toEqual(['upper', 'lower', undefined]);
    expect(names.isAmbiguous('CUSTOMER')).toBe(true);
    expect(names.hasFolded('CUSTOMER')).toBe(true);
    expect(names.hasFolded('product')).toBe(false);
  });
});
