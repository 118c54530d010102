import { columnOf, resourceOf } from '../../../test/support/resource-shapes.js';
import { DocumentPlanner } from './document-plan.js';
import { tableLevel } from '../levels/table-level.js';
import { documentLevel } from './document-level.js';
import type { WriteLevel } from './write-level.js';

const order = resourceOf('purchaseorder', [
  columnOf('order_number', 'integer', true, { generated: true }),
  columnOf('paid', 'boolean'),
  columnOf('total', 'decimal', false, { precision: 10, scale: 2 }),
]);
const item = resourceOf('lineitem', [
  columnOf('lineitem_id', 'integer', true, { generated: true }),
  columnOf('order_number', 'integer'),
  columnOf('qty', 'integer'),
]);
const relation = { name: 'purchaseorder', parent: 'purchaseorder', columns: [{ child: 'order_number', parent: 'order_number' }] };
const document: WriteLevel = {
  resource: order,
  path: 'OrderEntry',
  attributes: new Map([
    ['number', 'order_number'],
    ['paid', 'paid'],
    ['total', 'total'],
  ]),
  children: [{ name: 'Items', level: { ...documentLevel(tableLevel(item)), path: 'OrderEntry.Items', tableResource: false }, relation }],
  parents: [],
  computed: new Set(),
  tableResource: false,
};

describe('DocumentPlanner', () => {
  it('maps aliases to columns, makes values canonical, reads actions and plans children', () => {
    const [planned] = new DocumentPlanner('INSERT').plan(document, [
      { number: 7, paid: 1, total: '10.5', Items: [{ '@metadata': { action: 'LOOKUP' }, qty: 2 }, { '@metadata': { next_batch: 'x' } }] },
    ]);
    expect(planned!.action).toBe('INSERT');
    expect(planned!.sent).toEqual({ order_number: 7, paid: true, total: '10.50' });
    expect(planned!.children[0]!.objects.map((o) => [o.action, o.sent])).toEqual([['LOOKUP', { qty: 2 }]]);
  });

  it('skips a value a GET replaced by its link (inlinelimit)', () => {
    const [planned] = new DocumentPlanner('UPDATE').plan(document, [{ number: 7, total: { '@metadata': { href: 'http://h/x/7/total' } } }]);
    expect(planned!.sent).toEqual({ order_number: 7 });
  });

  it('refuses unknown attributes (4003, all named) and children that are not arrays of objects (4000)', () => {
    expect(() => new DocumentPlanner('INSERT').plan(document, [{ colour: 1, order_number: 2 }])).toThrow(
      /OrderEntry: "colour", "order_number"/,
    );
    expect(() => new DocumentPlanner('INSERT').plan(document, [{ Items: {} }])).toThrow(/"Items" must be an array of objects/);
    expect(() => new DocumentPlanner('INSERT').plan(document, [{ Items: [1] }])).toThrow(/"Items" must be an array of objects/);
  });

  it('counts every object of the body against the limit', () => {
    const items = Array.from({ length: 1000 }, () => ({ qty: 1 }));
    expect(() => new DocumentPlanner('INSERT').plan(document, [{ Items: items }])).toThrow(/At most 1000 objects/);
  });
});
