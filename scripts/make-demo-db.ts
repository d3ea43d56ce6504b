/**
 * Generates public/demo.sqlite: "Ridgeline Outfitters", a small outdoor-gear retailer.
 *
 * Run with `npx tsx scripts/make-demo-db.ts` (or `npm run demo:build`).
 *
 * The output is byte-identical on every run: all randomness comes from one seeded
 * mulberry32 stream, all dates are computed in UTC day numbers, and nothing reads the
 * clock. Changing the order of PRNG calls changes the data, so append new random
 * draws at the end of a generator step rather than in the middle if you want the
 * rest of the data to stay stable.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs, { type Database, type SqlValue } from 'sql.js';
import { mulberry32 } from '../src/core/random';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_FILE = resolve(ROOT, 'public/demo.sqlite');
const SEED = 20250630;

// ---------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------

const rand = mulberry32(SEED);
const int = (min: number, max: number): number => min + Math.floor(rand() * (max - min + 1));
const chance = (p: number): boolean => rand() < p;
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];

function weightedIndex(weights: readonly number[]): number {
  const total = weights.reduce((s, w) => s + w, 0);
  let r = rand() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i];
    if (r < 0) return i;
  }
  return weights.length - 1;
}
const pickWeighted = <T>(items: readonly (readonly [T, number])[]): T =>
  items[weightedIndex(items.map(([, w]) => w))][0];

/** Approximately normal (Irwin-Hall with 4 uniforms), mean 0, sd ~1. */
const gauss = (): number => (rand() + rand() + rand() + rand() - 2) * Math.sqrt(3);
const round2 = (x: number): number => Math.round(x * 100) / 100;
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

// ---------------------------------------------------------------------------
// Dates: UTC day numbers so the local timezone can never leak into the output
// ---------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const iso = (d: number): string => new Date(d * DAY_MS).toISOString().slice(0, 10);
const isoDateTime = (d: number, secondsOfDay: number): string =>
  new Date(d * DAY_MS + secondsOfDay * 1000).toISOString().slice(0, 19).replace('T', ' ');
const monthOf = (d: number): number => new Date(d * DAY_MS).getUTCMonth() + 1;
const weekdayOf = (d: number): number => new Date(d * DAY_MS).getUTCDay();

const START = day('2023-01-01');
const END = day('2025-06-30'); // "today" in the demo world
const BLACK_FRIDAYS = [day('2023-11-24'), day('2024-11-29')];

// ---------------------------------------------------------------------------
// Reference data
// ---------------------------------------------------------------------------

const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Elijah',
  'Sophia',
  'Mateo',
  'Isabella',
  'Lucas',
  'Mia',
  'Ethan',
  'Amelia',
  'James',
  'Harper',
  'Benjamin',
  'Evelyn',
  'Henry',
  'Abigail',
  'Jack',
  'Chloe',
  'Daniel',
  'Grace',
  'Samuel',
  'Zoe',
  'Owen',
  'Nora',
  'Leo',
  'Hannah',
  'Caleb',
  'Priya',
  'Arjun',
  'Mei',
  'Hiro',
  'Yuki',
  'Sofia',
  'Diego',
  'Camila',
  'Lukas',
  'Lena',
  'Finn',
  'Freya',
  'Aisha',
  'Omar',
  'Fatima',
  'Kwame',
  'Amara',
  'Sven',
  'Ingrid',
  'Chloé',
  'Mathieu',
  'Camille',
  'Connor',
  'Siobhan',
  'Rhys',
  'Isla',
  'Tane',
  'Aroha',
  'Ji-woo',
  'Min-jun',
  'Wei',
  'Lin',
  'Ravi',
  'Ananya',
  'Tomás',
  'Lucía',
  'Jonas',
  'Marta',
  'Eli',
  'Ruby',
];
const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Thompson',
  'White',
  'Harris',
  'Clark',
  'Lewis',
  'Walker',
  'Hall',
  'Young',
  'King',
  'Wright',
  'Nguyen',
  'Patel',
  'Kim',
  'Chen',
  'Wang',
  'Singh',
  'Tanaka',
  'Sato',
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Dubois',
  'Lefebvre',
  "O'Brien",
  'MacLeod',
  'Murphy',
  'Kelly',
  'Rossi',
  'Bianchi',
  'Novak',
  'Kowalski',
  'Johansson',
  'Larsen',
  'Okafor',
  'Mensah',
  'Haddad',
  'Cohen',
  'Silva',
  'Santos',
  'Fraser',
  'Campbell',
  'Walsh',
  'Byrne',
  'Van der Berg',
  'de Vries',
  'Bakker',
  'Tremblay',
  'Gagnon',
  'Roy',
];

type CountryInfo = {
  country: string;
  weight: number;
  phone: () => string;
  cities: readonly (readonly [city: string, region: string | null])[];
};

const digits = (n: number): string => Array.from({ length: n }, () => int(0, 9)).join('');

const COUNTRIES: readonly CountryInfo[] = [
  {
    country: 'United States',
    weight: 52,
    phone: () => `+1 ${int(201, 989)}-${int(200, 999)}-${digits(4)}`,
    cities: [
      ['Denver', 'CO'],
      ['Boulder', 'CO'],
      ['Seattle', 'WA'],
      ['Spokane', 'WA'],
      ['Portland', 'OR'],
      ['Bend', 'OR'],
      ['Salt Lake City', 'UT'],
      ['Boise', 'ID'],
      ['Bozeman', 'MT'],
      ['Missoula', 'MT'],
      ['San Francisco', 'CA'],
      ['Sacramento', 'CA'],
      ['Los Angeles', 'CA'],
      ['Flagstaff', 'AZ'],
      ['Asheville', 'NC'],
      ['Burlington', 'VT'],
      ['Minneapolis', 'MN'],
      ['Austin', 'TX'],
      ['Chicago', 'IL'],
      ['New York', 'NY'],
      ['Anchorage', 'AK'],
      ['Jackson', 'WY'],
    ],
  },
  {
    country: 'Canada',
    weight: 16,
    phone: () => `+1 ${pick(['403', '587', '604', '778', '416', '514', '902'])}-${int(200, 999)}-${digits(4)}`,
    cities: [
      ['Calgary', 'AB'],
      ['Canmore', 'AB'],
      ['Vancouver', 'BC'],
      ['Squamish', 'BC'],
      ['Victoria', 'BC'],
      ['Toronto', 'ON'],
      ['Ottawa', 'ON'],
      ['Montréal', 'QC'],
      ['Halifax', 'NS'],
    ],
  },
  {
    country: 'United Kingdom',
    weight: 10,
    phone: () => `+44 7${digits(3)} ${digits(6)}`,
    cities: [
      ['Edinburgh', 'Scotland'],
      ['Glasgow', 'Scotland'],
      ['Inverness', 'Scotland'],
      ['Manchester', 'England'],
      ['Kendal', 'England'],
      ['Bristol', 'England'],
      ['London', 'England'],
      ['Cardiff', 'Wales'],
    ],
  },
  {
    country: 'Germany',
    weight: 6,
    phone: () => `+49 1${int(50, 79)} ${digits(7)}`,
    cities: [
      ['Munich', 'Bavaria'],
      ['Garmisch-Partenkirchen', 'Bavaria'],
      ['Berlin', null],
      ['Hamburg', null],
      ['Freiburg', 'Baden-Württemberg'],
    ],
  },
  {
    country: 'Australia',
    weight: 6,
    phone: () => `+61 4${digits(2)} ${digits(3)} ${digits(3)}`,
    cities: [
      ['Hobart', 'TAS'],
      ['Melbourne', 'VIC'],
      ['Sydney', 'NSW'],
      ['Katoomba', 'NSW'],
      ['Brisbane', 'QLD'],
    ],
  },
  {
    country: 'France',
    weight: 4,
    phone: () => `+33 6 ${digits(2)} ${digits(2)} ${digits(2)} ${digits(2)}`,
    cities: [
      ['Chamonix', null],
      ['Grenoble', null],
      ['Lyon', null],
      ['Paris', null],
      ['Annecy', null],
    ],
  },
  {
    country: 'Japan',
    weight: 3,
    phone: () => `+81 90-${digits(4)}-${digits(4)}`,
    cities: [
      ['Sapporo', 'Hokkaido'],
      ['Matsumoto', 'Nagano'],
      ['Tokyo', null],
    ],
  },
  {
    country: 'Netherlands',
    weight: 3,
    phone: () => `+31 6 ${digits(8)}`,
    cities: [
      ['Amsterdam', null],
      ['Utrecht', null],
      ['Rotterdam', null],
    ],
  },
];

type CategoryDef = {
  name: string;
  code: string;
  description: string;
  nouns: readonly string[];
  price: readonly [number, number];
  weightKg: readonly [number, number];
  /** What reviewers talk about for this kind of product. */
  aspects: readonly string[];
};

const CATEGORIES: readonly CategoryDef[] = [
  {
    name: 'Tents & Shelters',
    code: 'TNT',
    description: 'Backpacking tents, tarps and bivy shelters',
    nouns: ['1P Tent', '2P Tent', '3P Tent', 'Dome Tent', 'Tarp', 'Bivy Sack', 'Trekking Pole Shelter', 'Family Tent'],
    price: [89, 649],
    weightKg: [0.4, 5.5],
    aspects: ['the pitch', 'the rainfly', 'the zippers', 'the floor space', 'the stakes'],
  },
  {
    name: 'Sleeping Bags & Pads',
    code: 'SLP',
    description: 'Down and synthetic bags, quilts and sleeping pads',
    nouns: [
      'Down Sleeping Bag',
      'Synthetic Sleeping Bag',
      'Quilt',
      'Inflatable Pad',
      'Foam Pad',
      'Camp Pillow',
      'Bag Liner',
    ],
    price: [19, 499],
    weightKg: [0.1, 2.2],
    aspects: ['the warmth', 'the packed size', 'the zipper', 'the valve', 'the comfort'],
  },
  {
    name: 'Backpacks',
    code: 'BPK',
    description: 'Daypacks, multi-day packs and hydration packs',
    nouns: ['Daypack 22L', 'Daypack 30L', 'Backpack 45L', 'Backpack 60L', 'Hydration Pack', 'Summit Pack', 'Hip Pack'],
    price: [39, 349],
    weightKg: [0.2, 2.4],
    aspects: ['the hip belt', 'the fit', 'the pockets', 'the fabric', 'the back panel'],
  },
  {
    name: 'Footwear',
    code: 'FTW',
    description: 'Hiking boots, trail runners and camp shoes',
    nouns: ['Hiking Boot', 'Mid Hiker', 'Trail Runner', 'Approach Shoe', 'Camp Sandal', 'Winter Boot', 'Gaiters'],
    price: [29, 279],
    weightKg: [0.2, 1.8],
    aspects: ['the fit', 'the grip', 'the waterproofing', 'the cushioning', 'the laces'],
  },
  {
    name: 'Clothing',
    code: 'CLO',
    description: 'Shells, insulation, base layers and accessories',
    nouns: ['Rain Jacket', 'Down Jacket', 'Fleece', 'Softshell', 'Base Layer Top', 'Hiking Pants', 'Beanie', 'Gloves'],
    price: [19, 399],
    weightKg: [0.05, 0.9],
    aspects: ['the sizing', 'the hood', 'the breathability', 'the pockets', 'the fabric'],
  },
  {
    name: 'Climbing',
    code: 'CLM',
    description: 'Ropes, harnesses, helmets and protection',
    nouns: ['Dynamic Rope 60m', 'Harness', 'Helmet', 'Quickdraw Set', 'Belay Device', 'Chalk Bag', 'Climbing Shoe'],
    price: [15, 289],
    weightKg: [0.05, 4.0],
    aspects: ['the fit', 'the handling', 'the adjustability', 'the build quality'],
  },
  {
    name: 'Camp Kitchen',
    code: 'KIT',
    description: 'Stoves, cookware, fuel and food storage',
    nouns: ['Canister Stove', 'Cook Pot', 'Cook Set', 'Mug', 'Spork', 'Bear Canister', 'Fuel Canister 230g'],
    price: [5, 189],
    weightKg: [0.02, 1.3],
    aspects: ['the boil time', 'the lid', 'the handle', 'the simmer control', 'the size'],
  },
  {
    name: 'Navigation & Electronics',
    code: 'NAV',
    description: 'Headlamps, GPS units, power banks and compasses',
    nouns: ['Headlamp', 'GPS Watch', 'Handheld GPS', 'Power Bank', 'Solar Panel', 'Compass', 'Satellite Messenger'],
    price: [19, 599],
    weightKg: [0.03, 0.6],
    aspects: ['the battery life', 'the brightness', 'the buttons', 'the app', 'the accuracy'],
  },
  {
    name: 'Water & Hydration',
    code: 'H2O',
    description: 'Filters, bottles and reservoirs',
    nouns: [
      'Water Filter',
      'Gravity Filter',
      'Purifier Bottle',
      'Insulated Bottle',
      'Reservoir 3L',
      'Collapsible Bottle',
    ],
    price: [12, 129],
    weightKg: [0.05, 0.7],
    aspects: ['the flow rate', 'the cap', 'the taste', 'the durability'],
  },
  {
    name: 'Trekking Accessories',
    code: 'ACC',
    description: 'Trekking poles, first aid, repair kits and odds and ends',
    nouns: ['Trekking Poles', 'First Aid Kit', 'Repair Kit', 'Dry Bag 10L', 'Stuff Sack', 'Microspikes', 'Sit Pad'],
    price: [9, 179],
    weightKg: [0.03, 0.8],
    aspects: ['the locks', 'the weight', 'the contents', 'the fabric', 'the grip'],
  },
];

/** Product-line names; combined with a noun they read like real catalogue entries. */
const SERIES = [
  'Alpine',
  'Ridgeline',
  'Cascade',
  'Trailhead',
  'Basecamp',
  'Northwind',
  'Granite',
  'Tundra',
  'Sierra',
  'Juniper',
  'Kestrel',
  'Switchback',
  'Talus',
  'Cirque',
  'Summit',
  'Meadow',
  'Boreal',
  'Scree',
  'Pika',
  'Larch',
];
const SUFFIXES = ['', '', '', ' Pro', ' Lite', ' UL', ' 2.0', ' Plus'];

const DIAL_CODES: Record<string, string> = {
  'United States': '1',
  Canada: '1',
  Vietnam: '84',
  Taiwan: '886',
  China: '86',
  Germany: '49',
  Italy: '39',
  Portugal: '351',
  Bangladesh: '880',
  'South Korea': '82',
  'New Zealand': '64',
  'United Kingdom': '44',
};

const SUPPLIERS: readonly (readonly [company: string, country: string, city: string])[] = [
  ['Cascade Textile Works', 'United States', 'Portland'],
  ['Timberline Metal Co.', 'United States', 'Denver'],
  ['Northern Down Supply', 'Canada', 'Winnipeg'],
  ['Hanoi Outdoor Manufacturing', 'Vietnam', 'Hanoi'],
  ['Saigon Technical Apparel', 'Vietnam', 'Ho Chi Minh City'],
  ['Taichung Precision Gear', 'Taiwan', 'Taichung'],
  ['Shenzhen Trailtech Electronics', 'China', 'Shenzhen'],
  ['Xiamen Canvas & Nylon', 'China', 'Xiamen'],
  ['Bergwerk Ausrüstung GmbH', 'Germany', 'Munich'],
  ['Dolomiti Calzature S.r.l.', 'Italy', 'Montebelluna'],
  ['Porto Footwear Lda.', 'Portugal', 'Porto'],
  ['Dhaka Knit Mills', 'Bangladesh', 'Dhaka'],
  ['Busan Outdoor Components', 'South Korea', 'Busan'],
  ['Kiwi Alpine Ltd', 'New Zealand', 'Christchurch'],
  ['Lakeland Climbing Supplies', 'United Kingdom', 'Kendal'],
];

/** Which suppliers make which categories (indexes into SUPPLIERS), so products look plausible. */
const SUPPLIERS_BY_CATEGORY: readonly (readonly number[])[] = [
  [0, 3, 7, 13], // tents
  [2, 3, 4, 7], // sleeping
  [0, 3, 7, 13], // packs
  [9, 10, 4], // footwear
  [0, 4, 11, 2], // clothing
  [8, 14, 5, 13], // climbing
  [1, 5, 12], // kitchen
  [6, 12, 5], // electronics
  [1, 5, 6], // water
  [1, 8, 5, 14], // accessories
];

// ---------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------

const SCHEMA = `
CREATE TABLE categories (
  category_id   INTEGER PRIMARY KEY,
  name          TEXT NOT NULL UNIQUE,
  description   TEXT
);

CREATE TABLE suppliers (
  supplier_id     INTEGER PRIMARY KEY,
  company_name    TEXT NOT NULL,
  contact_name    TEXT,
  email           TEXT,
  phone           TEXT,
  city            TEXT,
  country         TEXT NOT NULL,
  lead_time_days  INTEGER NOT NULL,
  is_preferred    INTEGER NOT NULL DEFAULT 0 CHECK (is_preferred IN (0, 1))
);

CREATE TABLE employees (
  employee_id       INTEGER PRIMARY KEY,
  first_name        TEXT NOT NULL,
  last_name         TEXT NOT NULL,
  email             TEXT NOT NULL UNIQUE,
  job_title         TEXT NOT NULL,
  department        TEXT NOT NULL,
  manager_id        INTEGER REFERENCES employees (employee_id),
  hire_date         TEXT NOT NULL,
  termination_date  TEXT,
  is_active         INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  annual_salary     REAL NOT NULL
);

CREATE TABLE customers (
  customer_id         INTEGER PRIMARY KEY,
  first_name          TEXT NOT NULL,
  last_name           TEXT NOT NULL,
  email               TEXT NOT NULL UNIQUE,
  phone               TEXT,
  city                TEXT NOT NULL,
  region              TEXT,
  country             TEXT NOT NULL,
  segment             TEXT NOT NULL CHECK (segment IN ('Consumer', 'Club', 'Corporate')),
  signup_date         TEXT NOT NULL,
  marketing_opt_in    INTEGER NOT NULL DEFAULT 0 CHECK (marketing_opt_in IN (0, 1)),
  account_manager_id  INTEGER REFERENCES employees (employee_id)
);

CREATE TABLE products (
  product_id         INTEGER PRIMARY KEY,
  sku                TEXT NOT NULL UNIQUE,
  name               TEXT NOT NULL,
  category_id        INTEGER NOT NULL REFERENCES categories (category_id),
  supplier_id        INTEGER NOT NULL REFERENCES suppliers (supplier_id),
  unit_price         NUMERIC NOT NULL,
  unit_cost          NUMERIC NOT NULL,
  weight_kg          REAL,
  stock_quantity     INTEGER NOT NULL DEFAULT 0,
  launched_date      TEXT NOT NULL,
  discontinued_date  TEXT
);

CREATE TABLE orders (
  order_id       INTEGER PRIMARY KEY,
  customer_id    INTEGER NOT NULL REFERENCES customers (customer_id),
  employee_id    INTEGER REFERENCES employees (employee_id),
  order_date     TEXT NOT NULL,
  channel        TEXT NOT NULL CHECK (channel IN ('web', 'store', 'phone')),
  status         TEXT NOT NULL CHECK (status IN ('pending', 'shipped', 'delivered', 'cancelled', 'returned')),
  shipped_date   TEXT,
  shipping_cost  REAL NOT NULL DEFAULT 0,
  ship_city      TEXT,
  ship_country   TEXT
);

CREATE TABLE order_items (
  order_id    INTEGER NOT NULL REFERENCES orders (order_id),
  product_id  INTEGER NOT NULL REFERENCES products (product_id),
  quantity    INTEGER NOT NULL CHECK (quantity > 0),
  unit_price  REAL NOT NULL,
  discount    REAL NOT NULL DEFAULT 0 CHECK (discount >= 0 AND discount < 1),
  PRIMARY KEY (order_id, product_id)
);

CREATE TABLE payments (
  payment_id  INTEGER PRIMARY KEY,
  order_id    INTEGER NOT NULL REFERENCES orders (order_id),
  paid_at     TEXT NOT NULL,
  method      TEXT NOT NULL CHECK (method IN ('card', 'paypal', 'gift_card', 'cash', 'bank_transfer')),
  kind        TEXT NOT NULL CHECK (kind IN ('charge', 'refund')),
  amount      REAL NOT NULL
);

CREATE TABLE reviews (
  review_id          INTEGER PRIMARY KEY,
  product_id         INTEGER NOT NULL REFERENCES products (product_id),
  customer_id        INTEGER NOT NULL REFERENCES customers (customer_id),
  rating             INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  title              TEXT,
  body               TEXT,
  review_date        TEXT NOT NULL,
  verified_purchase  INTEGER NOT NULL DEFAULT 0 CHECK (verified_purchase IN (0, 1)),
  helpful_votes      INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX idx_products_category ON products (category_id);
CREATE INDEX idx_products_supplier ON products (supplier_id);
CREATE INDEX idx_orders_customer ON orders (customer_id);
CREATE INDEX idx_orders_date ON orders (order_date);
CREATE INDEX idx_orders_status ON orders (status);
CREATE INDEX idx_order_items_product ON order_items (product_id);
CREATE INDEX idx_payments_order ON payments (order_id);
CREATE INDEX idx_reviews_product ON reviews (product_id);
CREATE INDEX idx_employees_manager ON employees (manager_id);

-- One row per order; money is items after line discounts plus shipping.
CREATE VIEW order_totals AS
SELECT
  o.order_id,
  o.customer_id,
  o.order_date,
  o.status,
  o.channel,
  COUNT(*) AS line_count,
  SUM(oi.quantity) AS units,
  ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) AS items_total,
  o.shipping_cost,
  ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)) + o.shipping_cost, 2) AS order_total
FROM orders AS o
JOIN order_items AS oi ON oi.order_id = o.order_id
GROUP BY o.order_id;

-- Revenue from orders that actually went out the door (returns and cancellations excluded).
CREATE VIEW monthly_revenue AS
SELECT
  substr(order_date, 1, 7) AS month,
  COUNT(*) AS orders,
  SUM(units) AS units,
  ROUND(SUM(order_total), 2) AS revenue,
  ROUND(AVG(order_total), 2) AS avg_order_value
FROM order_totals
WHERE status IN ('shipped', 'delivered')
GROUP BY substr(order_date, 1, 7)
ORDER BY month;

CREATE VIEW product_ratings AS
SELECT
  p.product_id,
  p.name,
  c.name AS category,
  COUNT(r.review_id) AS review_count,
  ROUND(AVG(r.rating), 2) AS avg_rating
FROM products AS p
JOIN categories AS c ON c.category_id = p.category_id
LEFT JOIN reviews AS r ON r.product_id = p.product_id
GROUP BY p.product_id;
`;

// ---------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------

type Row = SqlValue[];

function insertAll(db: Database, table: string, columns: readonly string[], rows: readonly Row[]): void {
  const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  const stmt = db.prepare(sql);
  try {
    for (const row of rows) stmt.run(row);
  } finally {
    stmt.free();
  }
}

const emailLocal = (first: string, last: string): string =>
  `${first}.${last}`
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z.-]/g, '');

interface Employee {
  id: number;
  department: string;
  title: string;
  hire: number;
  termination: number | null;
}

function makeEmployees(): { rows: Row[]; employees: Employee[] } {
  // [title, department, manager index (into this list) or null, hire date, termination date]
  const plan: readonly (readonly [string, string, number | null, string, string | null])[] = [
    ['Founder & CEO', 'Management', null, '2016-04-01', null],
    ['Head of Sales', 'Sales', 0, '2017-02-13', null],
    ['Head of Operations', 'Warehouse', 0, '2017-06-05', null],
    ['Customer Support Lead', 'Support', 0, '2018-09-17', null],
    ['Marketing Lead', 'Marketing', 0, '2019-03-11', null],
    ['Senior Sales Associate', 'Sales', 1, '2018-05-21', null],
    ['Sales Associate', 'Sales', 1, '2020-08-03', null],
    ['Sales Associate', 'Sales', 1, '2021-04-19', '2024-03-15'],
    ['Sales Associate', 'Sales', 1, '2022-01-10', null],
    ['Sales Associate', 'Sales', 1, '2023-06-05', null],
    ['Sales Associate', 'Sales', 1, '2024-04-01', null],
    ['Warehouse Supervisor', 'Warehouse', 2, '2019-01-14', null],
    ['Warehouse Associate', 'Warehouse', 11, '2021-10-04', null],
    ['Warehouse Associate', 'Warehouse', 11, '2022-11-14', '2023-09-29'],
    ['Warehouse Associate', 'Warehouse', 11, '2023-10-16', null],
    ['Support Specialist', 'Support', 3, '2020-02-24', null],
    ['Support Specialist', 'Support', 3, '2022-07-11', null],
    ['Support Specialist', 'Support', 3, '2024-09-09', null],
    ['Content Marketer', 'Marketing', 4, '2021-05-17', null],
    ['Growth Marketer', 'Marketing', 4, '2023-02-06', null],
  ];
  const salaryBase: Record<string, number> = {
    Management: 165000,
    Sales: 58000,
    Warehouse: 44000,
    Support: 48000,
    Marketing: 62000,
  };
  const usedEmails = new Set<string>();
  const rows: Row[] = [];
  const employees: Employee[] = [];
  plan.forEach(([title, department, managerIdx, hire, termination], i) => {
    const id = i + 1;
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    let email = `${emailLocal(first, last)}@ridgeline-outfitters.example`;
    if (usedEmails.has(email)) email = email.replace('@', `${id}@`);
    usedEmails.add(email);
    const senior = /Head|CEO/.test(title) ? 1.5 : /Lead|Senior|Supervisor/.test(title) ? 1.25 : 1;
    const salary = Math.round((salaryBase[department] * senior * (0.9 + rand() * 0.25)) / 500) * 500;
    rows.push([
      id,
      first,
      last,
      email,
      title,
      department,
      managerIdx === null ? null : managerIdx + 1,
      hire,
      termination,
      termination === null ? 1 : 0,
      salary,
    ]);
    employees.push({
      id,
      department,
      title,
      hire: day(hire),
      termination: termination === null ? null : day(termination),
    });
  });
  return { rows, employees };
}

interface Customer {
  id: number;
  signup: number;
  segment: string;
  country: string;
  city: string;
  activity: number;
}

function makeCustomers(salesReps: readonly Employee[]): { rows: Row[]; customers: Customer[] } {
  const rows: Row[] = [];
  const customers: Customer[] = [];
  const usedEmails = new Set<string>();
  const emailDomains = ['example.com', 'example.net', 'example.org', 'mail.example', 'trailmail.example'];
  const signupStart = day('2021-03-01');
  const signupEnd = day('2025-06-15');
  for (let id = 1; id <= 200; id++) {
    const countryInfo = pickWeighted(COUNTRIES.map((c) => [c, c.weight] as const));
    const [city, baseRegion] = pick(countryInfo.cities);
    const segment = pickWeighted([
      ['Consumer', 80],
      ['Club', 12],
      ['Corporate', 8],
    ] as const);
    let first = pick(FIRST_NAMES);
    let last = pick(LAST_NAMES);
    let local = emailLocal(first, last);
    if (usedEmails.has(local)) {
      // Keep names realistic but unique-ish: re-roll once, then fall back to a number.
      first = pick(FIRST_NAMES);
      last = pick(LAST_NAMES);
      local = emailLocal(first, last);
      if (usedEmails.has(local)) local = `${local}${id}`;
    }
    usedEmails.add(local);
    const email = `${local}@${pick(emailDomains)}`;
    const phone = chance(0.22) ? null : countryInfo.phone();
    // Some addresses were captured without a region even where one exists.
    const region = baseRegion !== null && chance(0.06) ? null : baseRegion;
    // Skew sign-ups towards earlier dates: the shop was growing, but older customers accumulate.
    const signup = signupStart + Math.floor(Math.pow(rand(), 1.3) * (signupEnd - signupStart));
    const optIn = chance(0.55) ? 1 : 0;
    const accountManager = segment === 'Consumer' ? null : pick(salesReps.filter((e) => e.termination === null)).id;
    // Pareto-ish: a few customers place many orders.
    const activity = (segment === 'Consumer' ? 1 : 2.5) * Math.pow(rand(), 2.2) + 0.05;
    rows.push([
      id,
      first,
      last,
      email,
      phone,
      city,
      region,
      countryInfo.country,
      segment,
      iso(signup),
      optIn,
      accountManager,
    ]);
    customers.push({ id, signup, segment, country: countryInfo.country, city, activity });
  }
  return { rows, customers };
}

function makeSuppliers(): Row[] {
  return SUPPLIERS.map(([company, country, city], i) => {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const domain = company
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z]+/g, '')
      .slice(0, 16);
    const email = chance(0.85) ? `${emailLocal(first, last)}@${domain}.example` : null;
    const phone = chance(0.3) ? null : `+${DIAL_CODES[country]} ${digits(3)} ${digits(3)} ${digits(4)}`;
    const leadTime = country === 'United States' || country === 'Canada' ? int(5, 15) : int(21, 75);
    return [i + 1, company, `${first} ${last}`, email, phone, city, country, leadTime, chance(0.4) ? 1 : 0];
  });
}

interface Product {
  id: number;
  category: number;
  price: number;
  launched: number;
  discontinued: number | null;
  popularity: number;
  quality: number;
  noun: string;
}

function makeProducts(): { rows: Row[]; products: Product[] } {
  const rows: Row[] = [];
  const products: Product[] = [];
  const usedNames = new Set<string>();
  const perCategory = 12;
  let id = 0;
  CATEGORIES.forEach((cat, catIdx) => {
    for (let n = 0; n < perCategory; n++) {
      let name: string;
      let noun: string;
      do {
        noun = pick(cat.nouns);
        name = `${pick(SERIES)} ${noun}${pick(SUFFIXES)}`;
      } while (usedNames.has(name));
      usedNames.add(name);
      id++;
      const [lo, hi] = cat.price;
      // Log-uniform prices: many cheap items, fewer expensive ones; retail prices end in .99 or .95.
      const raw = lo * Math.pow(hi / lo, rand());
      const price = Math.max(4.99, Math.round(raw) - (chance(0.8) ? 0.01 : 0.05));
      const cost = round2(price * (0.42 + rand() * 0.18));
      const [wLo, wHi] = cat.weightKg;
      const weight = chance(0.05) ? null : Math.round((wLo + rand() * (wHi - wLo)) * 1000) / 1000;
      // Most of the range predates the order history; a third launched during it.
      const launched = chance(0.68) ? int(day('2019-02-01'), day('2022-12-01')) : int(START, day('2025-04-30'));
      let discontinued: number | null = null;
      if (chance(0.12) && launched < day('2024-01-01'))
        discontinued = int(Math.max(launched + 200, day('2023-09-01')), day('2025-06-01'));
      const supplier = pick(SUPPLIERS_BY_CATEGORY[catIdx]) + 1;
      const stock = discontinued !== null ? 0 : chance(0.06) ? 0 : int(3, 240);
      const popularity = Math.pow(rand(), 1.8) * 4 + 0.2 + (price < 60 ? 0.8 : 0);
      const quality = 2.7 + rand() * 2.2;
      rows.push([
        id,
        `${cat.code}-${String(1000 + id)}`,
        name,
        catIdx + 1,
        supplier,
        price,
        cost,
        weight,
        stock,
        iso(launched),
        discontinued === null ? null : iso(discontinued),
      ]);
      products.push({ id, category: catIdx, price, launched, discontinued, popularity, quality, noun });
    }
  });
  return { rows, products };
}

/** Relative order volume for a day: seasonality, weekends, holiday sales and growth. */
function demandWeight(d: number): number {
  const month = monthOf(d);
  const seasonal = [0, 0.7, 0.65, 0.85, 1.0, 1.2, 1.35, 1.3, 1.15, 0.9, 0.85, 1.25, 1.55][month];
  const weekend = weekdayOf(d) === 0 || weekdayOf(d) === 6 ? 1.25 : 1;
  const growth = 1 + ((d - START) / (END - START)) * 0.6;
  const blackFriday = BLACK_FRIDAYS.some((bf) => d >= bf && d < bf + 4) ? 3 : 1;
  return seasonal * weekend * growth * blackFriday;
}

function sampleOrderDays(count: number): number[] {
  const days: number[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (let d = START; d <= END; d++) {
    total += demandWeight(d);
    days.push(d);
    cumulative.push(total);
  }
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const r = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    out.push(days[lo]);
  }
  return out.sort((a, b) => a - b);
}

/** Prices went up over time; historical sales used the price list of their year. */
const priceFactor = (d: number): number => (d < day('2024-01-01') ? 0.92 : d < day('2025-01-01') ? 0.96 : 1);

/**
 * A payment whose amount is filled in later from the order_totals view, so that payments
 * reconcile to the cent with what SQL reports (JS and SQLite round half-cents differently).
 */
interface PendingPayment {
  orderId: number;
  paidAt: string;
  method: string;
  kind: 'charge' | 'refund';
  amount: (orderTotal: number) => number;
}

/**
 * Drops line discounts until the exact order total is not a half cent (x.xx5).
 *
 * ROUND(x, 2) on such ties differs between SQLite versions (3.40 gives 2828.06 for
 * 2828.055, 3.54 gives 2828.05), so order_totals would disagree with payments depending
 * on which engine opens the file. Exact arithmetic in 1/10000 cent units finds the ties.
 */
function avoidHalfCentTotal(lines: { quantity: number; unitPrice: number; discount: number }[]): void {
  const exactTotal = (): number =>
    lines.reduce(
      (sum, l) => sum + l.quantity * Math.round(l.unitPrice * 100) * (100 - Math.round(l.discount * 100)),
      0,
    );
  for (let i = lines.length - 1; i >= 0 && exactTotal() % 100 === 50; i--) lines[i].discount = 0;
}

interface DeliveredLine {
  customer: number;
  product: number;
  shipped: number;
}

function makeOrders(
  customers: readonly Customer[],
  employees: readonly Employee[],
  products: readonly Product[],
): { orders: Row[]; items: Row[]; payments: PendingPayment[]; delivered: DeliveredLine[] } {
  const orders: Row[] = [];
  const items: Row[] = [];
  const payments: PendingPayment[] = [];
  const delivered: DeliveredLine[] = [];
  const salesReps = employees.filter((e) => e.department === 'Sales' && !e.title.startsWith('Head'));

  sampleOrderDays(2000).forEach((orderDay, i) => {
    const orderId = i + 1;
    const eligible = customers.filter((c) => c.signup <= orderDay);
    const customer = eligible[weightedIndex(eligible.map((c) => c.activity))];
    const channel = pickWeighted([
      ['web', 66],
      ['store', 19],
      ['phone', 15],
    ] as const);
    let employeeId: number | null = null;
    if (channel !== 'web') {
      const onDuty = salesReps.filter(
        (e) => e.hire <= orderDay && (e.termination === null || e.termination > orderDay),
      );
      employeeId = pick(onDuty).id;
    }

    // Order lines: distinct products that were on sale that day.
    const available = products.filter(
      (p) => p.launched <= orderDay && (p.discontinued === null || p.discontinued > orderDay),
    );
    const lineCount = Math.min(
      available.length,
      pickWeighted([
        [1, 16],
        [2, 24],
        [3, 24],
        [4, 17],
        [5, 11],
        [6, 8],
      ] as const),
    );
    const chosen = new Set<number>();
    while (chosen.size < lineCount) chosen.add(weightedIndex(available.map((p) => p.popularity)));
    const isBlackFriday = BLACK_FRIDAYS.some((bf) => orderDay >= bf && orderDay < bf + 4);
    const isSummerSale = monthOf(orderDay) === 7 && new Date(orderDay * DAY_MS).getUTCDate() <= 14;
    const lines: { productId: number; quantity: number; unitPrice: number; discount: number }[] = [];
    for (const idx of [...chosen].sort((a, b) => available[a].id - available[b].id)) {
      const p = available[idx];
      const bulk = customer.segment !== 'Consumer' && chance(0.45);
      const quantity = bulk
        ? int(2, 12)
        : pickWeighted([
            [1, 82],
            [2, 13],
            [3, 4],
            [4, 1],
          ] as const);
      const unitPrice = round2(p.price * priceFactor(orderDay));
      let discount = 0;
      if (isBlackFriday) discount = pick([0.15, 0.2, 0.25]);
      else if (isSummerSale) discount = 0.1;
      else if (customer.segment === 'Corporate') discount = 0.1;
      else if (customer.segment === 'Club') discount = 0.05;
      else if (chance(0.04)) discount = 0.15; // one-off coupon
      lines.push({ productId: p.id, quantity, unitPrice, discount });
    }
    avoidHalfCentTotal(lines);
    let itemsTotal = 0;
    for (const line of lines) {
      items.push([orderId, line.productId, line.quantity, line.unitPrice, line.discount]);
      itemsTotal += line.quantity * line.unitPrice * (1 - line.discount);
    }
    itemsTotal = round2(itemsTotal);
    const lineProducts = lines.map((l) => l.productId);

    const shippingCost = channel === 'store' ? 0 : itemsTotal >= 100 ? 0 : channel === 'phone' ? 9.95 : 7.95;
    const approxTotal = itemsTotal + shippingCost;

    // Status depends on how long ago the order was placed relative to END ("today").
    const age = END - orderDay;
    let status: string;
    if (channel === 'store') status = chance(0.04) ? 'returned' : 'delivered';
    else if (age <= 2) status = chance(0.75) ? 'pending' : chance(0.1) ? 'cancelled' : 'shipped';
    else if (age <= 9)
      status = pickWeighted([
        ['pending', 8],
        ['shipped', 70],
        ['delivered', 18],
        ['cancelled', 4],
      ] as const);
    else
      status = pickWeighted([
        ['delivered', 89],
        ['cancelled', 4.5],
        ['returned', 5.5],
        ['shipped', 1],
      ] as const);
    if (status === 'shipped' && age > 30) status = 'delivered';

    let shipped: number | null = null;
    if (status !== 'pending' && status !== 'cancelled') {
      shipped = channel === 'store' ? orderDay : Math.min(END, orderDay + int(1, 4));
    }
    orders.push([
      orderId,
      customer.id,
      employeeId,
      iso(orderDay),
      channel,
      status,
      shipped === null ? null : iso(shipped),
      shippingCost,
      channel === 'store' ? null : customer.city,
      channel === 'store' ? null : customer.country,
    ]);

    // Payments: web and phone orders are charged at checkout; some pending phone orders await payment.
    const unpaid = status === 'pending' && channel === 'phone' && chance(0.6);
    const cancelledBeforePayment = status === 'cancelled' && chance(0.5);
    if (!unpaid && !cancelledBeforePayment) {
      const method =
        channel === 'store'
          ? pickWeighted([
              ['card', 80],
              ['cash', 15],
              ['gift_card', 5],
            ] as const)
          : customer.segment === 'Corporate' && chance(0.6)
            ? 'bank_transfer'
            : pickWeighted([
                ['card', 72],
                ['paypal', 23],
                ['gift_card', 5],
              ] as const);
      const paidSeconds = int(8 * 3600, 21 * 3600 + 59 * 60);
      const paidAt = isoDateTime(orderDay, paidSeconds);
      if (method === 'gift_card' && approxTotal > 60) {
        // Gift cards rarely cover the whole order, so the remainder goes on a card.
        const giftPart = pick([25, 50]);
        payments.push({ orderId, paidAt, method: 'gift_card', kind: 'charge', amount: () => giftPart });
        payments.push({
          orderId,
          paidAt: isoDateTime(orderDay, paidSeconds + 1),
          method: 'card',
          kind: 'charge',
          amount: (total) => round2(total - giftPart),
        });
      } else {
        payments.push({ orderId, paidAt, method, kind: 'charge', amount: (total) => total });
      }
      if (status === 'cancelled' || status === 'returned') {
        const refundDay = Math.min(END, (shipped ?? orderDay) + (status === 'returned' ? int(7, 35) : int(0, 2)));
        const refundMethod = method === 'gift_card' || method === 'cash' ? 'card' : method;
        payments.push({
          orderId,
          paidAt: isoDateTime(refundDay, int(9 * 3600, 17 * 3600)),
          method: refundMethod,
          kind: 'refund',
          amount: (total) => -total,
        });
      }
    }

    if (status === 'delivered' && shipped !== null) {
      for (const product of lineProducts) delivered.push({ customer: customer.id, product, shipped });
    }
  });
  return { orders, items, payments, delivered };
}

const TITLES: Record<number, readonly string[]> = {
  5: [
    'Absolutely love it',
    'Worth every penny',
    'Best purchase this season',
    'Exceeded expectations',
    'Bombproof',
    'Five stars',
  ],
  4: ['Really good', 'Solid gear', 'Happy with it', 'Great with one small gripe', 'Would buy again'],
  3: ['Does the job', 'Okay for the price', 'Mixed feelings', 'Average', 'Fine, not great'],
  2: ['Disappointed', 'Not as described', 'Wore out quickly', 'Expected better'],
  1: ['Returned it', 'Fell apart', 'Do not buy', 'Waste of money'],
};
const TRIPS = [
  'a three-day trip in the Sierra',
  'a weekend on the West Coast Trail',
  'a wet week in the Lake District',
  'a section of the Appalachian Trail',
  'a winter overnight near Banff',
  'day hikes around Chamonix',
  'a family camping trip',
  'the Tour du Mont Blanc',
  'a rainy Scottish munro bagging weekend',
  'an overnight in the Blue Mountains',
  'a fastpacking loop in Colorado',
  'my daily dog walks',
];
/** Predicates as [singular, plural] so "the zipper is" / "the zippers are" both read naturally. */
const PRAISE: readonly (readonly [string, string])[] = [
  ['is excellent', 'are excellent'],
  ['is really well thought out', 'are really well thought out'],
  ['works perfectly', 'work perfectly'],
  ['is better than on my old one', 'are better than on my old one'],
  ['feels premium', 'feel premium'],
];
const COMPLAINTS: readonly (readonly [string, string])[] = [
  ['is a bit fiddly', 'are a bit fiddly'],
  ['could be better', 'could be better'],
  ['is disappointing', 'are disappointing'],
  ['feels cheap', 'feel cheap'],
  ['is poorly designed', 'are poorly designed'],
];
const isPlural = (noun: string): boolean => /[^s]s$/.test(noun);
const say = (aspect: string, predicates: readonly (readonly [string, string])[]): string =>
  `${aspect} ${pick(predicates)[isPlural(aspect) ? 1 : 0]}`;
/** "Dry Bag 10L" -> "dry bag 10L", "GPS Watch" -> "GPS watch". */
const lowerNoun = (noun: string): string =>
  noun
    .split(' ')
    .map((w) => (/^[A-Z][a-z]+$/.test(w) ? w.toLowerCase() : w))
    .join(' ');
const CLOSERS_GOOD = ['Highly recommend.', 'Would buy again.', 'Great value.', 'Shipping was fast too.'];
const DETAILS = [
  'For reference I am 183 cm and about 80 kg.',
  'Overnight temperatures dropped to around -5 °C.',
  'It rained for two days straight and everything stayed dry.',
  "I compared it side by side with a friend's from a bigger brand.",
  'It packed into my 45L pack with room to spare.',
  'The colour is a little different from the photos.',
  'Setup took about ten minutes the first time, under five after that.',
  'I have now used it on four trips, roughly 20 nights in total.',
  'Customer service answered my sizing question within a day.',
  'Carried it over 120 km of rocky trail without issues.',
];
const CLOSERS_BAD = [
  'Customer support was helpful though.',
  'Not worth the price.',
  'I sent it back.',
  'Look elsewhere.',
  'Maybe I got a bad one.',
];

function reviewBody(rating: number, product: Product): string | null {
  if (chance(0.1)) return null; // star-only review
  const category = CATEGORIES[product.category];
  // Two different aspects so a review never praises and criticises the same thing.
  const first = pick(category.aspects);
  const second = pick(category.aspects.filter((a) => a !== first));
  const demonstrative = isPlural(product.noun) ? 'these' : 'this';
  const parts: string[] = [`Used ${demonstrative} ${lowerNoun(product.noun)} on ${pick(TRIPS)}.`];
  if (rating >= 4) {
    parts.push(`${capitalize(say(first, PRAISE))}.`);
    if (rating === 4 || chance(0.3)) parts.push(`Only downside: ${say(second, COMPLAINTS)}.`);
    const closers =
      category.name === 'Footwear' || category.name === 'Clothing'
        ? [...CLOSERS_GOOD, 'Sizing runs true.']
        : CLOSERS_GOOD;
    parts.push(pick(closers));
  } else if (rating === 3) {
    parts.push(`${capitalize(say(first, PRAISE))}, but ${say(second, COMPLAINTS)}.`);
    if (chance(0.5)) parts.push(pick(CLOSERS_BAD));
  } else {
    parts.push(`${capitalize(say(first, COMPLAINTS))}, and ${say(second, COMPLAINTS)}.`);
    parts.push(pick(CLOSERS_BAD));
  }
  // A few long reviews and a few multi-line ones, so the UI's cell truncation and
  // line-break handling get exercised by the demo.
  if (chance(0.06)) {
    const extra = new Set<string>();
    while (extra.size < 3) extra.add(pick(DETAILS));
    parts.push(...extra);
  }
  let body = parts.join(' ');
  if (chance(0.04))
    body += `\n\nEdit after ${int(2, 11)} months: ${rating >= 3 ? 'still going strong.' : 'support sent a replacement, which has been better.'}`;
  return body;
}
const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function makeReviews(
  delivered: readonly DeliveredLine[],
  products: readonly Product[],
  customers: readonly Customer[],
): Row[] {
  const byId = new Map(products.map((p) => [p.id, p]));
  const rows: Row[] = [];
  const seen = new Set<string>();
  type Candidate = { customer: number; product: number; date: number; verified: number };
  const verified: Candidate[] = [];
  for (const line of delivered) {
    const key = `${line.customer}:${line.product}`;
    const date = line.shipped + int(4, 75);
    if (seen.has(key) || date > END) continue;
    seen.add(key);
    verified.push({ customer: line.customer, product: line.product, date, verified: 1 });
  }
  // Partial Fisher-Yates: an unbiased random subset spread over the whole period.
  const verifiedCount = 760;
  for (let i = 0; i < verifiedCount; i++) {
    const j = i + Math.floor(rand() * (verified.length - i));
    [verified[i], verified[j]] = [verified[j], verified[i]];
  }
  const candidates = verified.slice(0, verifiedCount);
  // Unverified reviews: people who bought elsewhere or in store without an account.
  while (candidates.length < 800) {
    const customer = pick(customers);
    const product = pick(products);
    const key = `${customer.id}:${product.id}`;
    const from = Math.max(START, customer.signup, product.launched);
    if (seen.has(key) || from >= END) continue;
    seen.add(key);
    candidates.push({ customer: customer.id, product: product.id, date: int(from, END), verified: 0 });
  }
  candidates.sort((a, b) => a.date - b.date || a.product - b.product || a.customer - b.customer);
  candidates.forEach((c, i) => {
    const product = byId.get(c.product);
    if (!product) throw new Error(`unknown product ${c.product}`);
    const rating = clamp(Math.round(product.quality + gauss() * 1.0 - (c.verified ? 0 : 0.5)), 1, 5);
    const title = chance(0.15) ? null : pick(TITLES[rating]);
    const helpful = Math.floor(Math.pow(rand(), 3) * 40);
    rows.push([
      i + 1,
      c.product,
      c.customer,
      rating,
      title,
      reviewBody(rating, product),
      iso(c.date),
      c.verified,
      helpful,
    ]);
  });
  return rows;
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

async function main(): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  // Enforce the declared FKs while inserting so the generator can't produce dangling references.
  db.run('PRAGMA foreign_keys = ON');
  db.run(SCHEMA);

  const { rows: employeeRows, employees } = makeEmployees();
  const salesReps = employees.filter((e) => e.department === 'Sales');
  const { rows: customerRows, customers } = makeCustomers(salesReps);
  const supplierRows = makeSuppliers();
  const { rows: productRows, products } = makeProducts();
  const { orders, items, payments, delivered } = makeOrders(customers, employees, products);
  const reviewRows = makeReviews(delivered, products, customers);

  db.run('BEGIN');
  insertAll(
    db,
    'categories',
    ['category_id', 'name', 'description'],
    CATEGORIES.map((c, i) => [i + 1, c.name, c.description]),
  );
  insertAll(
    db,
    'suppliers',
    [
      'supplier_id',
      'company_name',
      'contact_name',
      'email',
      'phone',
      'city',
      'country',
      'lead_time_days',
      'is_preferred',
    ],
    supplierRows,
  );
  insertAll(
    db,
    'employees',
    [
      'employee_id',
      'first_name',
      'last_name',
      'email',
      'job_title',
      'department',
      'manager_id',
      'hire_date',
      'termination_date',
      'is_active',
      'annual_salary',
    ],
    employeeRows,
  );
  insertAll(
    db,
    'customers',
    [
      'customer_id',
      'first_name',
      'last_name',
      'email',
      'phone',
      'city',
      'region',
      'country',
      'segment',
      'signup_date',
      'marketing_opt_in',
      'account_manager_id',
    ],
    customerRows,
  );
  insertAll(
    db,
    'products',
    [
      'product_id',
      'sku',
      'name',
      'category_id',
      'supplier_id',
      'unit_price',
      'unit_cost',
      'weight_kg',
      'stock_quantity',
      'launched_date',
      'discontinued_date',
    ],
    productRows,
  );
  insertAll(
    db,
    'orders',
    [
      'order_id',
      'customer_id',
      'employee_id',
      'order_date',
      'channel',
      'status',
      'shipped_date',
      'shipping_cost',
      'ship_city',
      'ship_country',
    ],
    orders,
  );
  insertAll(db, 'order_items', ['order_id', 'product_id', 'quantity', 'unit_price', 'discount'], items);
  const orderTotals = new Map(
    db.exec('SELECT order_id, order_total FROM order_totals')[0].values.map((r) => [Number(r[0]), Number(r[1])]),
  );
  // Payment ids follow payment time, as an auto-increment would in a live system.
  const paymentRows: Row[] = payments
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (a.p.paidAt < b.p.paidAt ? -1 : a.p.paidAt > b.p.paidAt ? 1 : a.i - b.i))
    .map(({ p }, i) => {
      const total = orderTotals.get(p.orderId);
      if (total === undefined) throw new Error(`order ${p.orderId} has no total`);
      return [i + 1, p.orderId, p.paidAt, p.method, p.kind, p.amount(total)];
    });
  insertAll(db, 'payments', ['payment_id', 'order_id', 'paid_at', 'method', 'kind', 'amount'], paymentRows);
  insertAll(
    db,
    'reviews',
    [
      'review_id',
      'product_id',
      'customer_id',
      'rating',
      'title',
      'body',
      'review_date',
      'verified_purchase',
      'helpful_votes',
    ],
    reviewRows,
  );
  db.run('COMMIT');

  const fkProblems = db.exec('PRAGMA foreign_key_check');
  if (fkProblems.length > 0)
    throw new Error(`foreign_key_check failed: ${JSON.stringify(fkProblems[0].values.slice(0, 5))}`);
  const integrity = db.exec('PRAGMA integrity_check')[0].values[0][0];
  if (integrity !== 'ok') throw new Error(`integrity_check failed: ${String(integrity)}`);
  // Schema version of the demo file; bump when the schema changes so cached copies can be told apart.
  db.run('PRAGMA user_version = 1');
  // No ANALYZE on purpose: sqlite_stat1 would be one more internal table for the UI to hide.
  // VACUUM packs pages so the file is small and its bytes stable.
  db.run('VACUUM');

  const tables = db
    .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")[0]
    .values.map((r) => String(r[0]));
  const counts = tables.map((t) => `${t}=${String(db.exec(`SELECT COUNT(*) FROM "${t}"`)[0].values[0][0])}`);
  const totalRows = tables.reduce((s, t) => s + Number(db.exec(`SELECT COUNT(*) FROM "${t}"`)[0].values[0][0]), 0);

  const bytes = db.export();
  db.close();
  mkdirSync(dirname(OUT_FILE), { recursive: true });
  writeFileSync(OUT_FILE, bytes);
  console.log(
    `wrote ${OUT_FILE}: ${tables.length} tables, ${totalRows} rows, ${bytes.length} bytes (${counts.join(' ')})`,
  );
}

await main();
