import { Decimal } from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { Customer } from '../entities/customer.entity.js';
import { Employee } from '../entities/employee.entity.js';
import { Lineitem } from '../entities/lineitem.entity.js';
import { Product } from '../entities/product.entity.js';
import { Purchaseorder } from '../entities/purchaseorder.entity.js';
import { demoCustomers, demoEmployees, demoOrders, demoProducts } from './demo-data.js';

async function insertOne(manager: EntityManager, entity: Function, values: Record<string, unknown>): Promise<number> {
  const result = await manager.createQueryBuilder().insert().into(entity).values(values).execute();
  return Number(Object.values(result.identifiers[0] ?? {})[0]);
}

/**
 * Loads the demo data with every derived value already right: amount = qty × price,
 * amount_total = Σ amounts, amount_owed = amount_total (nothing paid), balance = Σ unpaid totals. Runs inside the caller's transaction.
 */
export async function seedDemo(manager: EntityManager): Promise<void> {
  const productIds: number[] = [];
  for (const p of demoProducts) productIds.push(await insertOne(manager, Product, p));
  const employeeIds: number[] = [];
  for (const e of demoEmployees) employeeIds.push(await insertOne(manager, Employee, e));

  const balances = new Map<string, Decimal>(demoCustomers.map((c) => [c.name, new Decimal(0)]));
  const orders = demoOrders.map((order) => {
    const items = order.items.map(([product, qty]) => {
      const price = new Decimal(demoProducts[product]!.price);
      return { product, qty, price, amount: price.times(qty) };
    });
    const total = items.reduce((sum, item) => sum.plus(item.amount), new Decimal(0));
    if (!order.paid) balances.set(order.customer, balances.get(order.customer)!.plus(total));
    return { order, items, total };
  });

  for (const c of demoCustomers) {
    await insertOne(manager, Customer, { name: c.name, credit_limit: c.credit_limit, balance: balances.get(c.name)!.toFixed(4) });
  }
  for (const { order, items, total } of orders) {
    const orderNumber = await insertOne(manager, Purchaseorder, {
      customer_name: order.customer,
      salesrep_id: order.salesrep === null ? null : employeeIds[order.salesrep],
      amount_total: total.toFixed(4),
      amount_owed: total.toFixed(4),
      paid: order.paid,
      notes: order.notes,
    });
    for (const item of items) {
      await insertOne(manager, Lineitem, {
        order_number: orderNumber,
        product_number: productIds[item.product],
        qty_ordered: item.qty,
        product_price: item.price.toFixed(4),
        amount: item.amount.toFixed(4),
      });
    }
  }
}
