/** The demo project's data set: small, deterministic, and consistent with the demo rules. */

export const demoProducts: Array<{ name: string; price: string }> = [
  { name: 'Hammer', price: '10.00' },
  { name: 'Shovel', price: '25.00' },
  { name: 'Drill', price: '315.00' },
  { name: 'Saw', price: '45.50' },
  { name: 'Wrench', price: '12.75' },
  { name: 'Pliers', price: '8.25' },
  { name: 'Ladder', price: '120.00' },
  { name: 'Toolbox', price: '60.00' },
  { name: 'Tape measure', price: '7.40' },
  { name: 'Level', price: '18.90' },
];

export const demoEmployees: Array<{ login: string; name: string; salary: string }> = [
  { login: 'sam', name: 'Sam Sales', salary: '50000.00' },
  { login: 'pat', name: 'Pat Peters', salary: '62000.00' },
  { login: 'lee', name: 'Lee Long', salary: '48500.00' },
  { login: 'kim', name: 'Kim Kowalski', salary: '75000.00' },
  { login: 'max', name: 'Max Moreno', salary: '58250.00' },
];

const CUSTOMER_NAMES = [
  'Alpha and Sons',
  'Bravo Supply',
  'Charlie Tools',
  'Delta Hardware',
  'Echo Builders',
  'Foxtrot Farms',
  'Golf Garden Co',
  'Hotel Renovations',
  'India Imports',
  'Juliet Joinery',
  'Kilo Kitchens',
  'Lima Lumber',
  'Mike Masonry',
  'November Nails',
  'Oscar Outfitters',
  'Papa Plumbing',
  'Quebec Quarry',
  'Romeo Roofing',
  'Sierra Steel',
  'Tango Tiles',
  'Uniform Utilities',
  'Victor Ventures',
  'Whiskey Works',
  'Xray Exteriors',
  'Yankee Yards',
  'Zulu Zinc',
  'Acme Anchors',
  'Beta Bricks',
  'Gamma Glass',
  'Omega Oak',
];

export const demoCustomers: Array<{ name: string; credit_limit: string }> = CUSTOMER_NAMES.map((name, i) => ({
  name,
  credit_limit: name === 'Alpha and Sons' ? '9000.00' : String(2000 + (i % 7) * 500) + '.00',
}));

export interface DemoOrder {
  customer: string;
  /** Index into demoEmployees, or null. */
  salesrep: number | null;
  paid: boolean;
  notes: string | null;
  /** [product index, quantity] */
  items: Array<[number, number]>;
}

/** 20 orders; employee 0 (sam) owns orders 1, 6, 11 and 16. */
export const demoOrders: DemoOrder[] = Array.from({ length: 20 }, (_, i) => ({
  customer: CUSTOMER_NAMES[i % 12]!,
  salesrep: i % 10 === 9 ? null : i % 5,
  paid: i % 4 === 3,
  notes: i % 3 === 0 ? `Order ${i + 1}` : null,
  items: [
    [i % 10, 1 + (i % 3)],
    ...(i % 2 === 0 ? ([[(i + 3) % 10, 2]] as Array<[number, number]>) : []),
    ...(i % 5 === 1 ? ([[(i + 6) % 10, 1]] as Array<[number, number]>) : []),
  ].filter(([product]) => product !== 2 || i % 4 !== 0) as Array<[number, number]>,
}));
