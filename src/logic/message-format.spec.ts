import { beforeAll, describe, expect, it } from '@jest/globals';
import { registryOf } from '../../test/support/registry.js';
import type { Resource } from '../data/resource-registry.js';
import { Customer } from '../demo/entities/customer.entity.js';
import { Employee } from '../demo/entities/employee.entity.js';
import { Lineitem } from '../demo/entities/lineitem.entity.js';
import { Product } from '../demo/entities/product.entity.js';
import { PurchaseorderAudit } from '../demo/entities/purchaseorder-audit.entity.js';
import { Purchaseorder } from '../demo/entities/purchaseorder.entity.js';
import { ConstraintFailure } from './constraint-failure.js';
import { messageColumns, messageProblems, renderMessage } from './message-format.js';

describe('constraint message placeholders and formats', () => {
  let customer: Resource;
  let audit: Resource;
  let item: Resource;
  beforeAll(async () => {
    const registry = await registryOf([Customer, Employee, Lineitem, Product, Purchaseorder, PurchaseorderAudit]);
    customer = registry.get('customer');
    audit = registry.get('purchaseorder_audit');
    item = registry.get('lineitem');
  });

  const alpha = { name: 'Alpha', balance: '1234567.5000', credit_limit: '-0.0040' };
  const render = (template: string, row = alpha, old: Record<string, unknown> | null = null) =>
    renderMessage(template, customer, row, old as never);

  it('formats numbers: grouped, with their own places or a given number of them (half up)', () => {
    expect(render('{balance}')).toBe('1234567.5');
    expect(render('{balance|number}')).toBe('1,234,567.5');
    expect(render('{balance|number:0}')).toBe('1,234,568');
    expect(render('{balance|number:3}')).toBe('1,234,567.500');
    expect(render('{credit_limit|number:2}')).toBe('0.00');
    expect(render('{credit_limit|number:3}')).toBe('-0.004');
    expect(renderMessage('{qty_ordered|number}', item, { qty_ordered: 12345 })).toBe('12,345');
  });

  it('formats money: two places, grouped, with an optional symbol before the digits', () => {
    expect(render('{balance|money}')).toBe('1,234,567.50');
    expect(render('{balance|money:$}')).toBe('$1,234,567.50');
    expect(render('{balance|money:EUR }', { ...alpha, balance: '-999.9950' })).toBe('-EUR 1,000.00');
  });

  it('formats dates and date-times by a pattern (UTC), ISO date by default', () => {
    const row = { audit_time: '2030-01-02T10:04:05.000Z' };
    expect(renderMessage('{audit_time|date}', audit, row)).toBe('2030-01-02');
    expect(renderMessage('{audit_time|date:DD.MM.YYYY HH:mm:ss}', audit, row)).toBe('02.01.2030 10:04:05');
    expect(renderMessage('{audit_time|date:MM/DD/YYYY}', audit, row)).toBe('01/02/2030');
  });

  it('reads old values with old., null on insert and for NULL whatever the format', () => {
    // -0.004 rounds to zero: no minus sign.
    expect(render('{old.credit_limit|money:$} to {credit_limit|money:$}', alpha, { ...alpha, credit_limit: '1000' })).toBe(
      '$1,000.00 to $0.00',
    );
    expect(render('{old.balance|money}')).toBe('null');
    expect(renderMessage('{audit_time|date}', audit, { audit_time: null })).toBe('null');
  });

  it('hides what the reader may not see, whatever the format; leaves unknown plain words alone', () => {
    const visible = (column: string) => column !== 'credit_limit';
    expect(renderMessage('{name}: {credit_limit|money:$} / {old.credit_limit|number:2} {other}', customer, alpha, alpha, visible)).toBe(
      'Alpha: (hidden) / (hidden) {other}',
    );
    expect(messageColumns(customer, '{name} {old.credit_limit|money} {other}')).toEqual(['name', 'credit_limit']);
  });

  it('hides every value of a message that names one the reader may not see, old ones included, and names the key', () => {
    const failure = new ConstraintFailure(customer, alpha, '{balance|money} was {old.credit_limit|money}', { ...alpha, credit_limit: '5' });
    expect(failure.messageFor(() => true)).toBe('1,234,567.50 was 5.00 (customer/Alpha)');
    expect(failure.messageFor((column) => column !== 'credit_limit')).toBe('(hidden) was (hidden) (customer/Alpha)');
    // A message that names the key (formatted or not) gets no key after it.
    expect(new ConstraintFailure(customer, alpha, '{name} is {balance}').messageFor(() => true)).toBe('Alpha is 1234567.5');
  });

  it('finds no problem in valid messages', () => {
    expect(messageProblems(customer, "Customer {name}'s balance {balance|money:$} exceeds {credit_limit|number:2} {old.balance}")).toEqual(
      [],
    );
    expect(messageProblems(audit, '{audit_time|date:YYYY-MM-DDTHH:mm} {amount_total|number}')).toEqual([]);
  });
});
