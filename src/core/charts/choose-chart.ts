// Which chart suits a result (issue 24): one pure function over the columns' kinds and
// cardinalities, shared by the page and the CLI. It proposes, with its reason in words; the
// person can change every choice. None when nothing fits: a chart that misleads is worse.

import { isIdentifierName } from '../results/column-names';
import type { SqlValue } from '../types';

export type ChartType = 'bar' | 'line' | 'grouped-bar' | 'stacked-bar' | 'scatter' | 'histogram';
export type Aggregate = 'none' | 'sum' | 'mean' | 'count';

export interface ChartChoice {
  type: ChartType | 'none';
  /** Column indices. */
  x?: number;
  y?: number;
  series?: number;
  aggregate?: Aggregate;
  reason: string;
}

/** What a column holds, read from its values. */
export type ColumnKind = 'number' | 'date' | 'category' | 'identifier' | 'text' | 'empty';

export interface ColumnProfile {
  name: string;
  kind: ColumnKind;
  distinct: number;
  nonNull: number;
}

/** Bars stop being readable past this many. */
export const MAX_BARS = 40;
/** Series in a grouped or stacked chart. */
export const MAX_SERIES = 10;

const ISO_DATE = /^\d{4}-\d{2}(-\d{2})?([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const YEAR_NAME = /(^|_|\b)(year|yr)s?$/i;
/** A column computed by an aggregate is what a chart measures. */
const AGGREGATE_NAME = /^\s*(count|sum|avg|min|max|total)\s*\(/i;

const isNumber = (v: SqlValue) => typeof v === 'number' || typeof v === 'bigint';

/** Kind and distinct count of each column of a result. */
export function profileColumns(columns: readonly string[], rows: readonly SqlValue[][]): ColumnProfile[] {
  return columns.map((name, c) => {
    const values = rows.map((r) => r[c]).filter((v) => v !== null);
    const distinct = new Set(values.map((v) => (v instanceof Uint8Array ? `blob:${v.length}` : String(v)))).size;
    const profile = (kind: ColumnKind): ColumnProfile => ({ name, kind, distinct, nonNull: values.length });
    if (values.length === 0 || values.some((v) => v instanceof Uint8Array)) return profile('empty');
    // Numbers that name things rather than measure them: ids, codes, phone and flight numbers.
    const identifier = isIdentifierName(name);
    if (values.every(isNumber)) {
      if (identifier) return profile('identifier');
      // Whole numbers in a column named as years are a time axis.
      if (YEAR_NAME.test(name) && values.every((v) => Number.isInteger(Number(v)))) return profile('date');
      return profile('number');
    }
    if (values.every((v) => typeof v === 'string' && ISO_DATE.test(v))) return profile('date');
    if (identifier) return profile('identifier');
    // Text that repeats is a category; text that does not is names or free text, a category
    // only when there are few rows (a "top 10").
    const text = values.some((v) => typeof v === 'string' && v.length > 60);
    return profile(!text && (distinct < values.length || values.length <= MAX_BARS) ? 'category' : 'text');
  });
}

/**
 * The proposed chart. Numbers are what is measured (y); a category, a date or a second number is
 * what they are measured by (x); a second category splits the bars into series.
 */
export function chooseChart(columns: readonly string[], rows: readonly SqlValue[][]): ChartChoice {
  if (rows.length === 0) return { type: 'none', reason: 'The result has no rows.' };
  const profiles = profileColumns(columns, rows);
  const of = (kind: ColumnKind) => profiles.flatMap((p, i) => (p.kind === kind ? [i] : []));
  const numbers = of('number');
  const dates = of('date');
  // Identifiers label bars only where no category does ("count per student id").
  const categories = [...of('category'), ...of('identifier')];
  if (rows.length === 1) return { type: 'none', reason: 'One row: its values say more than a chart would.' };
  if (numbers.length === 0) return { type: 'none', reason: 'No column holds numbers to draw.' };
  // An aggregate is the measure; a plain number beside it is what it was grouped by.
  numbers.sort((a, b) => Number(AGGREGATE_NAME.test(columns[b])) - Number(AGGREGATE_NAME.test(columns[a])));
  const y = numbers[0];
  const yName = columns[y];

  if (dates.length) {
    const x = dates[0];
    const repeats = profiles[x].distinct < profiles[x].nonNull;
    if (categories.length && repeats) {
      const series = categories[0];
      if (profiles[series].distinct <= MAX_SERIES)
        return {
          type: 'line',
          x,
          y,
          series,
          aggregate: 'sum',
          reason: `${yName} over ${columns[x]}, a line for each ${columns[series]}.`,
        };
    }
    return {
      type: 'line',
      x,
      y,
      aggregate: repeats ? 'sum' : 'none',
      reason: `${yName} over ${columns[x]}: a time axis reads as a line.`,
    };
  }

  if (categories.length) {
    const x = categories[0];
    const bars = profiles[x].distinct;
    if (bars > MAX_BARS)
      return {
        type: 'none',
        reason: `${columns[x]} has ${bars} values, too many bars to read; filter or group first.`,
      };
    if (categories.length >= 2) {
      const series = categories[1];
      const groups = profiles[series].distinct;
      // A second category that goes with the first one to one (a name and its id) splits nothing.
      const pairs = new Set(rows.map((r) => `${String(r[x])}\u0000${String(r[series])}`)).size;
      if (groups <= MAX_SERIES && pairs > bars)
        return {
          type: 'grouped-bar',
          x,
          y,
          series,
          aggregate: 'sum',
          reason: `${yName} by ${columns[x]}, bars side by side for each ${columns[series]}.`,
        };
    }
    if (bars < 2) return { type: 'none', reason: `${columns[x]} has one value: a single bar says nothing.` };
    const repeats = bars < profiles[x].nonNull;
    return {
      type: 'bar',
      x,
      y,
      aggregate: repeats ? 'sum' : 'none',
      reason: repeats
        ? `${yName} summed for each ${columns[x]} (its values repeat).`
        : `${yName} for each ${columns[x]}.`,
    };
  }

  if (numbers.length >= 2 && AGGREGATE_NAME.test(yName)) {
    // "max(accelerate) per cylinders": one row per whole number, a bar for each.
    const x = numbers.find((i) => i !== y && !AGGREGATE_NAME.test(columns[i]));
    const key = x === undefined ? undefined : profiles[x];
    const whole = x !== undefined && rows.every((r) => r[x] === null || Number.isInteger(Number(r[x])));
    if (key && whole && key.distinct === key.nonNull && key.distinct >= 2 && key.distinct <= MAX_BARS)
      return { type: 'bar', x, y, aggregate: 'none', reason: `${yName} for each ${columns[x!]}.` };
  }

  if (numbers.length >= 2 && rows.length >= 3)
    return {
      type: 'scatter',
      x: numbers[0],
      y: numbers[1],
      aggregate: 'none',
      reason: `${columns[numbers[1]]} against ${columns[numbers[0]]}: two measures, one point per row.`,
    };

  if (numbers.length === 1 && profiles[y].distinct >= 5)
    return {
      type: 'histogram',
      x: y,
      aggregate: 'count',
      reason: `How ${yName} is spread: rows counted in ranges of its values.`,
    };

  return { type: 'none', reason: 'No pairing of columns here makes a readable chart.' };
}
