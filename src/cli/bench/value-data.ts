// The contents of the benchmark's value database: four tables (people, products, companies,
// places) whose text columns draw from pools of generated values, deterministic for a seed.
//
// Every pool value is distinct after the value index's normalisation (case, accents,
// punctuation) across the whole database, so the value a query was made from is the only exact
// match and "hit@1" means what it says. Each pool value occurs at least once; the other rows draw
// from the pool with a skew towards its start, as real columns have a few common values and a
// long tail. Big pools stay under extractDistinctValues' per-column cap, so every value is
// indexed (policy 'all') and the numbers measure the index, not the LIKE fallback.

import { DEFAULT_MAX_VALUES_PER_COLUMN } from '../../core/retrieval/distinct-values';
import { normalizeValue } from '../../core/retrieval/value-text';
import { pick, seeded, shuffle } from './random';
import * as W from './words';

export interface TextColumn {
  name: string;
  /** Distinct values of the column. */
  pool: string[];
  /** Per row: an index into `pool`, or -1 for NULL. */
  cells: Int32Array;
}

export interface ValueTable {
  name: string;
  rows: number;
  create: string;
  /** Column names in INSERT order. */
  columns: string[];
  text: TextColumn[];
  /** The value of a non-text column for a row (0-based). */
  other(column: string, row: number): number;
}

/** Share of all rows in each table. */
const TABLE_SHARE = { people: 0.5, products: 0.25, companies: 0.15, places: 0.1 };
/** Distinct values per row of the whole database in each big column (5 x 4.6% = 230k at 1M rows). */
const BIG_POOL_SHARE = 0.046;
/** Below the per-column cap, so big columns are indexed whole rather than sampled. */
export const BIG_POOL_CAP = Math.floor(DEFAULT_MAX_VALUES_PER_COLUMN * 0.96);

/** Values distinct after normalisation across every pool made with the same registry. */
class UniqueValues {
  private readonly seen = new Set<string>();

  take(value: string): boolean {
    const key = normalizeValue(value);
    if (key === '' || this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  /** Up to `size` values from `make`, giving up after many collisions (a small value space). */
  pool(size: number, make: () => string): string[] {
    const out: string[] = [];
    for (let misses = 0; out.length < size && misses < size * 50 + 1000; ) {
      const v = make();
      if (this.take(v)) out.push(v);
      else misses++;
    }
    return out;
  }

  /** The items of a fixed list that are still free, at most `size`. */
  list(items: readonly string[], size = Infinity): string[] {
    return items.filter((v) => this.take(v)).slice(0, size);
  }
}

/** Pool indices for `rows` rows: every value once, the rest skewed to the pool's start, shuffled. */
function cellsFor(rnd: () => number, poolSize: number, rows: number, nullShare = 0): Int32Array {
  const cells = new Int32Array(rows);
  const n = Math.min(poolSize, rows);
  for (let i = 0; i < rows; i++) {
    if (i < n) cells[i] = i;
    else cells[i] = rnd() < nullShare ? -1 : Math.floor(n * rnd() ** 2);
  }
  return shuffle(rnd, cells);
}

export function generateValueTables(totalRows: number, seed: number): ValueTable[] {
  const rnd = seeded(seed);
  const unique = new UniqueValues();
  const coined = (min: number, max: number) => {
    const n = min + Math.floor(rnd() * (max - min + 1));
    let w = '';
    for (let i = 0; i < n; i++) w += pick(rnd, W.SYLLABLES);
    return w[0].toUpperCase() + w.slice(1);
  };
  const rowsOf = (share: number) => Math.max(1, Math.round(totalRows * share));
  const big = (tableRows: number) =>
    Math.min(BIG_POOL_CAP, tableRows, Math.max(1, Math.round(totalRows * BIG_POOL_SHARE)));
  const scaled = (share: number, max: number, tableRows: number) =>
    Math.min(max, tableRows, Math.max(1, Math.round(totalRows * share)));

  const people = rowsOf(TABLE_SHARE.people);
  const products = rowsOf(TABLE_SHARE.products);
  const companies = rowsOf(TABLE_SHARE.companies);
  const places = rowsOf(TABLE_SHARE.places);

  // Small fixed lists first, so the generated pools steer around them.
  const firstNames = unique.list(W.FIRST_NAMES, people);
  const countries = unique.list(W.COUNTRIES, places);
  const industries = unique.list(W.INDUSTRIES, companies);
  // Product categories are the nouns of product titles.
  const categories = unique.list(W.NOUNS);
  const brands = unique.pool(scaled(0.003, 3_000, products), () => coined(2, 3));
  const regions = unique.pool(scaled(0.0006, 600, places), () => `${coined(2, 3)} ${pick(rnd, W.REGION_KIND)}`);
  const jobTitles = unique.pool(
    scaled(0.005, 5_000, people),
    () => `${pick(rnd, W.SENIORITY)} ${pick(rnd, W.FIELDS)} ${pick(rnd, W.ROLES)}`,
  );

  const surnames = unique.pool(big(people), () => (rnd() < 0.02 ? pick(rnd, W.SURNAMES) : coined(2, 4)));
  const streets = unique.pool(big(people), () => `${coined(1, 3)} ${pick(rnd, W.STREET_KIND)}`);
  const placeNames = unique.pool(big(places), () => {
    const name = coined(1, 2) + pick(rnd, W.PLACE_SUFFIX);
    const r = rnd();
    return r < 0.3 ? `${pick(rnd, W.PLACE_PREFIX)} ${name}` : r < 0.5 ? `${name} ${pick(rnd, W.PLACE_EXTRA)}` : name;
  });
  const companyNames = unique.pool(
    big(companies),
    () => `${pick(rnd, surnames)} ${pick(rnd, W.INDUSTRIES)} ${pick(rnd, W.COMPANY_SUFFIX)}`,
  );
  // Brand first, as shops write titles: "Velmor Classic Oak Chair X210". The brand and category
  // columns say the same as the title, as in a real catalogue.
  const titles: string[] = [];
  const titleParts: Array<[brand: number, category: number]> = [];
  for (let misses = 0, size = big(products); titles.length < size && misses < size * 50; ) {
    const b = Math.floor(rnd() * brands.length);
    const c = Math.floor(rnd() * categories.length);
    const base = `${brands[b]} ${pick(rnd, W.ADJECTIVES)} ${pick(rnd, W.MATERIALS)} ${categories[c]}`;
    const r = rnd();
    const title =
      r < 0.4
        ? `${base} ${String.fromCharCode(65 + Math.floor(rnd() * 26))}${100 + Math.floor(rnd() * 900)}`
        : r < 0.6
          ? `${base} (${pick(rnd, W.SIZES)})`
          : base;
    if (!unique.take(title)) {
      misses++;
      continue;
    }
    titles.push(title);
    titleParts.push([b, c]);
  }

  const titleCells = cellsFor(rnd, titles.length, products);
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const companyOf = Int32Array.from({ length: people }, () => int(1, companies));
  const birthYear = Int32Array.from({ length: people }, () => int(1940, 2006));
  const price = Float64Array.from({ length: products }, () => Math.round(rnd() * 50_000) / 100);
  const founded = Int32Array.from({ length: companies }, () => int(1850, 2024));
  const population = Int32Array.from({ length: places }, () => Math.floor(100 * 10 ** (rnd() * 4)));

  return [
    {
      name: 'people',
      rows: people,
      create:
        'CREATE TABLE people (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, street TEXT, job_title TEXT, company_id INTEGER REFERENCES companies(id), birth_year INTEGER)',
      columns: ['id', 'first_name', 'last_name', 'street', 'job_title', 'company_id', 'birth_year'],
      text: [
        { name: 'first_name', pool: firstNames, cells: cellsFor(rnd, firstNames.length, people) },
        { name: 'last_name', pool: surnames, cells: cellsFor(rnd, surnames.length, people) },
        { name: 'street', pool: streets, cells: cellsFor(rnd, streets.length, people, 0.05) },
        { name: 'job_title', pool: jobTitles, cells: cellsFor(rnd, jobTitles.length, people, 0.1) },
      ],
      other: (c, row) => (c === 'id' ? row + 1 : c === 'company_id' ? companyOf[row] : birthYear[row]),
    },
    {
      name: 'products',
      rows: products,
      create:
        'CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL, brand TEXT, category TEXT, price REAL)',
      columns: ['id', 'title', 'brand', 'category', 'price'],
      text: [
        { name: 'title', pool: titles, cells: titleCells },
        { name: 'brand', pool: brands, cells: titleCells.map((i) => titleParts[i][0]) },
        { name: 'category', pool: categories, cells: titleCells.map((i) => titleParts[i][1]) },
      ],
      other: (c, row) => (c === 'id' ? row + 1 : price[row]),
    },
    {
      name: 'companies',
      rows: companies,
      create: 'CREATE TABLE companies (id INTEGER PRIMARY KEY, name TEXT NOT NULL, industry TEXT, founded INTEGER)',
      columns: ['id', 'name', 'industry', 'founded'],
      text: [
        { name: 'name', pool: companyNames, cells: cellsFor(rnd, companyNames.length, companies) },
        { name: 'industry', pool: industries, cells: cellsFor(rnd, industries.length, companies) },
      ],
      other: (c, row) => (c === 'id' ? row + 1 : founded[row]),
    },
    {
      name: 'places',
      rows: places,
      create:
        'CREATE TABLE places (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT, country TEXT, population INTEGER)',
      columns: ['id', 'name', 'region', 'country', 'population'],
      text: [
        { name: 'name', pool: placeNames, cells: cellsFor(rnd, placeNames.length, places) },
        { name: 'region', pool: regions, cells: cellsFor(rnd, regions.length, places) },
        { name: 'country', pool: countries, cells: cellsFor(rnd, countries.length, places) },
      ],
      other: (c, row) => (c === 'id' ? row + 1 : population[row]),
    },
  ];
}
