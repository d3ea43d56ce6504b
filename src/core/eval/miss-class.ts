// Why an answer was wrong, in the categories of Interactive-T2S's error analysis, as far as the
// two queries and their results can tell (no person reads them):
// - empty_gold: the reference returns no rows (often a reference or data problem);
// - format: the right values in another shape — extra columns, other case, spacing or rounding,
//   duplicates;
// - ambiguous: one result is a strict part of the other while a LIMIT decides how many rows
//   (ties, "the top one" against "all the top ones");
// - tie: the reference's rows with other rows tied at its LIMIT (the engine picked another of
//   equals; found by running the reference again, ties.ts, so it is set by the scorer);
// - filtered_column: the filters use other columns or other values;
// - selected_column: same filters, other columns selected;
// - reasoning: everything else (joins, grouping, aggregation, order, logic).
// Answers that never produced rows are apart: no_answer (the run ended without SQL) and
// sql_error (the final SQL failed or ran out of time when scored).

import { birdSetEq, spiderResultEq } from './exec-match';
import { rowKey, type PyRow } from './py-values';
import { queryShape } from './sql-shape';

export type MissClass =
  | 'selected_column'
  | 'filtered_column'
  | 'reasoning'
  | 'format'
  | 'empty_gold'
  | 'ambiguous'
  | 'tie'
  | 'no_answer'
  | 'sql_error';

export const MISS_CLASSES: readonly MissClass[] = [
  'selected_column',
  'filtered_column',
  'reasoning',
  'format',
  'empty_gold',
  'ambiguous',
  'tie',
  'no_answer',
  'sql_error',
];

export interface MissInput {
  dataset: 'spider' | 'bird';
  goldSql: string;
  /** Null when the run gave no SQL. */
  predSql: string | null;
  goldRows: PyRow[];
  /** Null when the predicted SQL failed when scored. */
  predRows: PyRow[] | null;
  orderMatters: boolean;
  /** Lower-cased column names of the database. */
  columns: ReadonlySet<string>;
}

/** The cells normalised as a person would read them: case, outer spaces, rounding, numbers in text. */
function loose(rows: PyRow[]): Set<string> {
  const norm = (eq: string) => {
    const [kind, ...rest] = eq.split(':');
    const body = rest.join(':');
    if (kind === 'n' || kind === 'f' || (kind === 's' && /^\s*-?\d+(\.\d+)?\s*$/.test(body))) {
      const x = Number(body);
      if (Number.isFinite(x)) return `#${Number(x.toPrecision(4))}`;
    }
    return kind === 's' ? `s:${body.trim().toLowerCase()}` : eq;
  };
  return new Set(rows.map((r) => JSON.stringify(r.map((c) => norm(c.eq)).sort())));
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((k) => b.has(k));

function* choose(n: number, k: number, start = 0, picked: number[] = []): Generator<number[]> {
  if (picked.length === k) {
    yield picked;
    return;
  }
  for (let j = start; j < n; j++) yield* choose(n, k, j + 1, [...picked, j]);
}

/** The gold result appears in the prediction once extra columns are dropped. */
function extraColumns(input: MissInput, pred: PyRow[]): boolean {
  const { goldRows: gold } = input;
  if (!gold.length || !pred.length) return false;
  const width = gold[0].length;
  const predWidth = pred[0].length;
  if (predWidth <= width || predWidth > 12) return false;
  for (const cols of choose(predWidth, width)) {
    const projected = pred.map((r) => cols.map((j) => r[j]));
    const equal =
      input.dataset === 'bird'
        ? birdSetEq(gold, projected)
        : spiderResultEq(gold, projected, { orderMatters: false }) || birdSetEq(gold, projected);
    if (equal) return true;
  }
  return false;
}

function isFormat(input: MissInput, pred: PyRow[]): boolean {
  const { goldRows: gold } = input;
  if (extraColumns(input, pred)) return true;
  // The same rows in another order, when order counts, is a reasoning miss (the wrong sort).
  if (birdSetEq(gold, pred)) return !input.orderMatters;
  // Otherwise the same rows up to case, spacing or rounding.
  return gold.length > 0 && sameSet(loose(gold), loose(pred));
}

/** One result's rows are a strict, non-empty part of the other's, and a LIMIT is involved. */
function isAmbiguous(input: MissInput, pred: PyRow[]): boolean {
  const limited = queryShape(input.goldSql).limit || queryShape(input.predSql ?? '').limit;
  if (!limited || !pred.length || pred[0].length !== input.goldRows[0].length) return false;
  const g = new Set(input.goldRows.map(rowKey));
  const p = new Set(pred.map(rowKey));
  const within = (a: Set<string>, b: Set<string>) => a.size < b.size && [...a].every((k) => b.has(k));
  return within(g, p) || within(p, g);
}

const known = (names: string[], columns: ReadonlySet<string>) =>
  [...new Set(names.filter((n) => columns.has(n)))].sort().join(',');

export function classifyMiss(input: MissInput): MissClass {
  if (input.predSql === null) return 'no_answer';
  if (input.predRows === null) return 'sql_error';
  if (input.goldRows.length === 0) return 'empty_gold';
  const pred = input.predRows;
  if (isFormat(input, pred)) return 'format';
  if (isAmbiguous(input, pred)) return 'ambiguous';
  const gold = queryShape(input.goldSql);
  const mine = queryShape(input.predSql);
  const literals = (xs: string[]) => [...new Set(xs.map((x) => x.toLowerCase()))].sort().join('\u0000');
  if (
    known(gold.filteredNames, input.columns) !== known(mine.filteredNames, input.columns) ||
    literals(gold.filteredLiterals) !== literals(mine.filteredLiterals)
  )
    return 'filtered_column';
  if (known(gold.selectedNames, input.columns) !== known(mine.selectedNames, input.columns)) return 'selected_column';
  return 'reasoning';
}
