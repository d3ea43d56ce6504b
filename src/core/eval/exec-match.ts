// Execution match as the official evaluators decide it, on results already read (py-values.ts).
//
// Spider (test-suite-sql-eval, exec_eval.py `result_eq`): the results are bags of rows; the
// columns may come in another order (any column permutation that makes the bags equal counts);
// row order is compared only when the gold query orders (`order by` in its text). Before running,
// both queries lose the DISTINCT keyword (the evaluator's default, keep_distinct off), `> =`-style
// operators are joined, YEAR(CURDATE()) becomes 2020, and the prediction's " value " becomes " 1 ".
//
// BIRD (evaluation.py / mini-dev evaluation_ex.py): the sets of rows are equal; column order,
// duplicates and row order are ignored. Mini-dev's soft F1 (evaluation_f1.py): rows deduplicated in
// first-seen order, paired by position, cells matched within each pair.

import { splitStatements } from '../sql/statements';
import { tokenize } from '../sql/tokens';
import { comparePyStrings, rowKey, type PyRow } from './py-values';

// ---------------------------------------------------------------------------------------------
// Spider

/** The in-row sort of exec_eval.py's `unorder_row`: by `str(x) + str(type(x))`, stable. */
function unorderedKey(row: PyRow): string {
  const sorted = [...row].sort((a, b) => comparePyStrings(a.sortKey, b.sortKey));
  return rowKey(sorted);
}

function counts(rows: PyRow[], perm?: number[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const row of rows) {
    const k = perm ? rowKey(perm.map((j) => row[j])) : rowKey(row);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

function sameCounts(a: Map<string, number>, b: Map<string, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, n] of a) if (b.get(k) !== n) return false;
  return true;
}

/** `quick_rej`: rows compared with their cells sorted; a list (order matters) or a set. */
function quickAccept(gold: PyRow[], pred: PyRow[], { orderMatters }: { orderMatters: boolean }): boolean {
  const g = gold.map(unorderedKey);
  const p = pred.map(unorderedKey);
  if (orderMatters) return g.every((k, i) => k === p[i]);
  const gs = new Set(g);
  const ps = new Set(p);
  return gs.size === ps.size && [...gs].every((k) => ps.has(k));
}

/**
 * Column permutations worth trying: gold column i may take prediction column j only when every
 * value of j occurs in gold column i. exec_eval.py prunes the same way from 20 sampled rows; the
 * pruning only drops permutations that cannot match, so checking every row decides the same.
 */
function* permutations(gold: PyRow[], pred: PyRow[], width: number): Generator<number[]> {
  const goldSets = Array.from({ length: width }, (_, i) => new Set(gold.map((r) => r[i].eq)));
  const allowed = goldSets.map((set) =>
    Array.from({ length: width }, (_, j) => j).filter((j) => pred.every((r) => set.has(r[j].eq))),
  );
  const perm: number[] = [];
  const used = new Array<boolean>(width).fill(false);
  function* place(i: number): Generator<number[]> {
    if (i === width) {
      yield [...perm];
      return;
    }
    for (const j of allowed[i]) {
      if (used[j]) continue;
      used[j] = true;
      perm.push(j);
      yield* place(i + 1);
      perm.pop();
      used[j] = false;
    }
  }
  yield* place(0);
}

/** exec_eval.py `result_eq(result1=gold, result2=pred, order_matters)`. */
export function spiderResultEq(gold: PyRow[], pred: PyRow[], { orderMatters }: { orderMatters: boolean }): boolean {
  if (gold.length === 0 && pred.length === 0) return true;
  if (gold.length !== pred.length) return false;
  const width = gold[0].length;
  if (pred[0].length !== width) return false;
  if (!quickAccept(gold, pred, { orderMatters })) return false;
  const goldKeys = gold.map(rowKey);
  const goldCounts = orderMatters ? null : counts(gold);
  for (const perm of permutations(gold, pred, width)) {
    if (orderMatters) {
      if (pred.every((row, i) => rowKey(perm.map((j) => row[j])) === goldKeys[i])) return true;
    } else if (sameCounts(goldCounts!, counts(pred, perm))) return true;
  }
  return false;
}

/** sqlparse-based `remove_distinct`: every DISTINCT keyword token dropped, first statement only. */
export function removeDistinct(sql: string): string {
  return tokenize(splitStatements(sql)[0]?.text ?? sql)
    .filter((t) => !(t.kind === 'word' && t.text.toLowerCase() === 'distinct'))
    .map((t) => t.text)
    .join('');
}

const joinOperators = (sql: string) => sql.replaceAll('> =', '>=').replaceAll('< =', '<=').replaceAll('! =', '!=');
const CUR_YEAR = /YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*/gi;

export interface SpiderPrepared {
  gold: string;
  pred: string;
  /** `'order by' in g_str.lower()`, after the rewrites. */
  orderMatters: boolean;
}

/** The two queries as the Spider evaluator runs them. */
export function spiderPrepare(goldSql: string, predSql: string): SpiderPrepared {
  const gold = removeDistinct(joinOperators(goldSql));
  const pred = removeDistinct(joinOperators(predSql.replaceAll(' value ', ' 1 ')));
  return {
    gold: gold.replace(CUR_YEAR, '2020'),
    pred: pred.replace(CUR_YEAR, '2020'),
    orderMatters: gold.toLowerCase().includes('order by'),
  };
}

// ---------------------------------------------------------------------------------------------
// BIRD

/** `set(predicted_res) == set(ground_truth_res)`. */
export function birdSetEq(gold: PyRow[], pred: PyRow[]): boolean {
  const g = new Set(gold.map(rowKey));
  const p = new Set(pred.map(rowKey));
  return g.size === p.size && [...g].every((k) => p.has(k));
}

function uniqueRows(rows: PyRow[]): PyRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = rowKey(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** evaluation_f1.py `calculate_row_match(predicted_row, ground_truth_row)`. */
function rowMatch(pred: PyRow, gold: PyRow): { match: number; predOnly: number; goldOnly: number } {
  const goldValues = new Set(gold.map((c) => c.eq));
  const predValues = new Set(pred.map((c) => c.eq));
  let matches = 0;
  let predOnly = 0;
  let goldOnly = 0;
  for (const c of pred) {
    if (goldValues.has(c.eq)) matches++;
    else predOnly++;
  }
  for (const c of gold) if (!predValues.has(c.eq)) goldOnly++;
  const width = gold.length;
  return { match: matches / width, predOnly: predOnly / width, goldOnly: goldOnly / width };
}

/** evaluation_f1.py `calculate_f1_score(predicted, ground_truth)`, in [0, 1]. */
export function softF1(gold: PyRow[], pred: PyRow[]): number {
  if (gold.length === 0 && pred.length === 0) return 1;
  const g = uniqueRows(gold);
  const p = uniqueRows(pred);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  g.forEach((goldRow, i) => {
    if (i >= p.length) {
      fn += 1;
      return;
    }
    const m = rowMatch(p[i], goldRow);
    tp += m.match;
    fp += m.predOnly;
    fn += m.goldOnly;
  });
  if (p.length > g.length) fp += p.length - g.length;
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}
