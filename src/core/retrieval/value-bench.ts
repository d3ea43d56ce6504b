// A self-contained benchmark of the value index on generated, realistic-looking values (people,
// places, products, companies; some with accents), deterministic for a seed. Pure: `dowser bench`
// and ad-hoc scripts call it; it reads no files and needs no database.

import type { DistinctColumnValues } from './types';
import { ValueIndex } from './value-index';
import { normalizeValue } from './value-text';
import { mulberry32 as randomSource } from '../random';

export interface ValueBenchOptions {
  distinctValues?: number;
  queries?: number;
  seed?: number;
}

export interface QueryKindStats {
  queries: number;
  /** Share of queries whose normalised text starts more than 5 values: no ranking can be sure to hit. */
  ambiguous?: number;
  /** hitAt5 over the other queries. */
  hitAt5Unambiguous?: number;
  hitAt1: number;
  hitAt5: number;
  p50Ms: number;
  p95Ms: number;
}

export interface ValueBenchResult {
  distinctValues: number;
  buildMs: number;
  valuesPerSec: number;
  /** The value itself as the query. */
  exact: QueryKindStats;
  /** The first 60% of the value's characters. */
  prefix: QueryKindStats;
  /** One substitution, insertion, deletion or swap of neighbours in a word of 4+ letters. */
  typo: QueryKindStats;
}

const now = () => globalThis.performance?.now() ?? Date.now();


const FIRST = ('James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph Jessica ' +
  'Thomas Sarah Charles Karen Christopher Nancy Daniel Lisa Matthew Betty Anthony Margaret Mark Sandra Donald Ashley Steven ' +
  'Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Dorothy Kevin Carol Brian Amanda George Melissa Edward Deborah ' +
  'Ronald Stephanie Timothy Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Shirley Eric ' +
  'Angela Jonathan Helen Stephen Anna Larry Brenda Justin Pamela Scott Nicole Brandon Emma Benjamin Samantha Samuel Katherine ' +
  'José Zoë Renée André Søren Bjørn Chloé Inès Jürgen Łukasz François Noémie Ada Bo Cy Li Wu Ana Eva Max Leo Mia').split(' ');
const LAST = ('Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson ' +
  'Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen ' +
  'King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Müller ' +
  'Schröder Dubois Lefèvre García Núñez Kowalski Øvergaard Åberg Novák Horváth').split(' ');
const SYLLABLES = ('al an ar ba be bel bran bro ca car cas da del dor el en fal fen gar gil ha har hol in ka kel lan ler lin mar mel ' +
  'mor na nel nor or pa per ra ren ros sa sel ston ta tal ter tor va vel ver wal wen wick win yar zan').split(' ');
const PLACE_PREFIX = 'North South East West Port Lake Mount New Saint Fort Upper Lower Old Little Great'.split(' ');
const PLACE_SUFFIX = ('ford ton ville burg field wood moor dale bury haven ridge brook stead mouth').split(' ');
const PLACE_EXTRA = 'Heights Springs Falls Harbour Crossing Valley Junction Bay Park Hills'.split(' ');
const ADJECTIVES = ('Classic Modern Vintage Rustic Deluxe Compact Portable Ergonomic Premium Organic Handmade Lightweight ' +
  'Heavy-Duty Waterproof Wireless Foldable Adjustable Elegant Minimalist Industrial Sleek Durable Cozy Smart Eco-Friendly ' +
  'Antique Bold Soft Bright Matte Glossy Slim Rugged Luxe Nordic Tropical Urban Coastal Alpine Crème').split(' ');
const MATERIALS = ('Cotton Leather Wooden Steel Bamboo Ceramic Glass Linen Wool Silk Copper Marble Velvet Denim Oak Walnut ' +
  'Aluminium Canvas Granite Suede Porcelain Rattan Cashmere Titanium Brass Concrete Cork Jute Felt Acrylic').split(' ');
const NOUNS = ('Chair Table Lamp Shirt Jacket Backpack Mug Bowl Vase Desk Shelf Sofa Blanket Pillow Rug Mirror Clock Kettle ' +
  'Teapot Wallet Belt Scarf Hat Boots Sneakers Headphones Speaker Keyboard Mouse Monitor Stand Planter Basket Tray Candle ' +
  'Frame Notebook Pen Bottle Cooler Tent Hammock Bench Stool Cabinet Dresser Wardrobe Curtain Towel Apron Glove Umbrella ' +
  'Bicycle Helmet Skateboard Guitar Ukulele Drum Easel Palette Brush Sculpture Puzzle Chessboard Telescope Compass Lantern').split(' ');
const INDUSTRY = ('Logistics Consulting Bakery Software Builders Motors Pharmacy Textiles Foods Energy Media Analytics ' +
  'Robotics Furniture Insurance Capital Outfitters Brewing Studios Partners Café Clinic').split(' ');
const COMPANY_SUFFIX = 'Ltd Inc GmbH LLC Co Group SA'.split(' ');

class ValueGenerator {
  private readonly surnames: string[];
  private readonly placeNames: string[];
  private readonly brands: string[];

  constructor(private readonly rnd: () => number) {
    // Real name and brand lists have long tails; coined words give a vocabulary of that size.
    this.surnames = [...LAST, ...Array.from({ length: 20_000 }, () => this.coined(2, 4))];
    this.placeNames = Array.from({ length: 20_000 }, () => this.coined(1, 2) + this.pick(PLACE_SUFFIX));
    this.brands = Array.from({ length: 3_000 }, () => this.coined(2, 3));
  }

  pick<T>(list: T[]): T {
    return list[Math.floor(this.rnd() * list.length)];
  }

  /** A made-up word of `min`..`max` syllables, capitalised. */
  private coined(min: number, max: number): string {
    const n = min + Math.floor(this.rnd() * (max - min + 1));
    let w = '';
    for (let i = 0; i < n; i++) w += this.pick(SYLLABLES);
    return w[0].toUpperCase() + w.slice(1);
  }

  person(): string {
    const middle = this.rnd() < 0.25 ? ` ${String.fromCharCode(65 + Math.floor(this.rnd() * 26))}.` : '';
    return `${this.pick(FIRST)}${middle} ${this.pick(this.surnames)}`;
  }

  place(): string {
    const r = this.rnd();
    const name = this.pick(this.placeNames);
    if (r < 0.3) return `${this.pick(PLACE_PREFIX)} ${name}`;
    if (r < 0.5) return `${name} ${this.pick(PLACE_EXTRA)}`;
    return name;
  }

  /** Brand first, as shops write titles: "Velmor Classic Oak Chair X210". */
  product(): string {
    const base = `${this.pick(this.brands)} ${this.pick(ADJECTIVES)} ${this.pick(MATERIALS)} ${this.pick(NOUNS)}`;
    const r = this.rnd();
    if (r < 0.4) return `${base} ${String.fromCharCode(65 + Math.floor(this.rnd() * 26))}${100 + Math.floor(this.rnd() * 900)}`;
    if (r < 0.6) return `${base} (${this.pick(['Small', 'Medium', 'Large', 'XL'])})`;
    return base;
  }

  company(): string {
    return `${this.pick(this.surnames)} ${this.pick(INDUSTRY)} ${this.pick(COMPANY_SUFFIX)}`;
  }
}

/** Generated columns with `total` distinct values (distinct after normalisation, too). */
export function generateValueColumns(total: number, seed = 1): DistinctColumnValues[] {
  const rnd = randomSource(seed);
  const gen = new ValueGenerator(rnd);
  const kinds: Array<[string, string, () => string]> = [
    ['people', 'name', () => gen.person()],
    ['places', 'name', () => gen.place()],
    ['products', 'title', () => gen.product()],
    ['companies', 'name', () => gen.company()],
  ];
  const columns = kinds.map(([table, column]) => ({ table, column, values: [] as string[], counts: [] as number[], rowsScanned: 0, policy: 'all' as const }));
  const seen = new Set<string>();
  let misses = 0;
  while (seen.size < total && misses < total * 20) {
    const k = seen.size % kinds.length;
    const value = kinds[k][2]();
    const key = value.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');
    if (seen.has(key)) { misses++; continue; }
    seen.add(key);
    // Zipf-like row counts: most values are rare, a few are common.
    const rows = Math.max(1, Math.floor(1 / (rnd() + 0.02)));
    columns[k].values.push(value);
    columns[k].counts.push(rows);
    columns[k].rowsScanned += rows;
  }
  return columns;
}

/** One edit in a word of 4+ letters: substitution, insertion, deletion or a swap of neighbours. */
export function withTypo(value: string, rnd: () => number): string | null {
  const words = [...value.matchAll(/\p{L}{4,}/gu)];
  if (words.length === 0) return null;
  const m = words[Math.floor(rnd() * words.length)];
  const w = m[0];
  const letter = () => String.fromCharCode(97 + Math.floor(rnd() * 26));
  const i = Math.floor(rnd() * w.length);
  let typo = w;
  for (let attempt = 0; attempt < 10 && typo.toLowerCase() === w.toLowerCase(); attempt++) {
    const op = Math.floor(rnd() * 4);
    if (op === 0) typo = w.slice(0, i) + letter() + w.slice(i + 1);
    else if (op === 1) typo = w.slice(0, i) + letter() + w.slice(i);
    else if (op === 2) typo = w.slice(0, i) + w.slice(i + 1);
    else {
      const j = Math.min(i, w.length - 2);
      typo = w.slice(0, j) + w[j + 1] + w[j] + w.slice(j + 2);
    }
  }
  if (typo.toLowerCase() === w.toLowerCase()) return null;
  return value.slice(0, m.index) + typo + value.slice((m.index ?? 0) + w.length);
}

/** For each query, whether its normalised form begins more than 5 of the values. */
function ambiguity(values: string[], queries: string[]): boolean[] {
  const sorted = values.map(normalizeValue).sort();
  const startOf = (key: string) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return queries.map((q) => {
    const key = normalizeValue(q);
    const at = startOf(key) + 5;
    return at < sorted.length && sorted[at].startsWith(key);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const round = (x: number) => Math.round(x * 1000) / 1000;

function measure(index: ValueIndex, pairs: Array<{ query: string; target: string }>, ambiguous?: boolean[]): QueryKindStats {
  const times: number[] = [];
  let at1 = 0;
  let at5 = 0;
  let clearAt5 = 0;
  pairs.forEach(({ query, target }, i) => {
    const t0 = now();
    const hits = index.search(query, { k: 5 });
    times.push(now() - t0);
    const rank = hits.findIndex((h) => h.value === target);
    if (rank === 0) at1++;
    if (rank >= 0) at5++;
    if (rank >= 0 && ambiguous && !ambiguous[i]) clearAt5++;
  });
  times.sort((a, b) => a - b);
  const n = Math.max(1, pairs.length);
  const stats: QueryKindStats = { queries: pairs.length, hitAt1: round(at1 / n), hitAt5: round(at5 / n), p50Ms: round(percentile(times, 0.5)), p95Ms: round(percentile(times, 0.95)) };
  if (ambiguous) {
    const unclear = ambiguous.filter(Boolean).length;
    stats.ambiguous = round(unclear / n);
    stats.hitAt5Unambiguous = round(clearAt5 / Math.max(1, pairs.length - unclear));
  }
  return stats;
}

export async function runValueBench({ distinctValues = 300_000, queries = 200, seed = 1 }: ValueBenchOptions = {}): Promise<ValueBenchResult> {
  const columns = generateValueColumns(distinctValues, seed);
  const t0 = now();
  const index = await ValueIndex.build(columns);
  const buildMs = now() - t0;

  const rnd = randomSource(seed + 7);
  const all = columns.flatMap((c) => c.values);
  const targets = Array.from({ length: queries }, () => all[Math.floor(rnd() * all.length)]);
  const exact = targets.map((v) => ({ query: v, target: v }));
  const prefix = targets.map((v) => ({ query: v.slice(0, Math.ceil(v.length * 0.6)), target: v }));
  const typo = targets.flatMap((v) => {
    const q = withTypo(v, rnd);
    return q ? [{ query: q, target: v }] : [];
  });
  return {
    distinctValues: index.size,
    buildMs: Math.round(buildMs),
    valuesPerSec: Math.round(index.size / (buildMs / 1000)),
    exact: measure(index, exact),
    prefix: measure(index, prefix, ambiguity(all, prefix.map((p) => p.query))),
    typo: measure(index, typo),
  };
}
