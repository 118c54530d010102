/** The line-item statements raw's W3 and raw-rules share, and PostgreSQL's placeholders. */

/** One line item, its price copied from the product and its amount derived in the same statement. */
export const INSERT_LINE_ITEM =
  'INSERT INTO lineitem (order_number, product_number, qty_ordered, product_price, amount) ' +
  'SELECT ?, product_number, ?, price, price * ? FROM product WHERE product_number = ?';

/** PostgreSQL cannot infer the types of parameters in a SELECT list. */
export const INSERT_LINE_ITEM_POSTGRES = INSERT_LINE_ITEM.replace(
  'SELECT ?, product_number, ?, price, price * ?',
  'SELECT ?::integer, product_number, ?::integer, price, price * ?::integer',
);

export const LINE_ITEM_COLUMNS = 'lineitem_id, order_number, product_number, qty_ordered, product_price, amount';
export const LINE_ITEM = `SELECT ${LINE_ITEM_COLUMNS} FROM lineitem WHERE lineitem_id = ?`;
export const LINE_ITEM_RETURNING = ` RETURNING ${LINE_ITEM_COLUMNS}`;

/** `?` placeholders as PostgreSQL's `$1`, `$2`, …. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
