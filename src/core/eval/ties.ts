// Ties at a reference's LIMIT. `ORDER BY count(*) DESC LIMIT 1` keeps one of the rows tied at the
// cut, and which one is the engine's choice: asked on PostgreSQL and scored against the SQLite
// file's reference (issue 36), the same SQL can keep another tied row and score 0. Spider's rule
// stays as it is (EX); this says, apart, when a wrong answer holds the reference's rows before the
// cut and, for the rest, rows tied with the reference's last one — a different engine's pick, not
// a different answer. It runs the reference again without its LIMIT, its ORDER BY keys selected
// beside its columns, to see the ties (sql/limit-ties.ts `tieProbe`, which answers share).

import type { TieProbe } from '../sql/limit-ties';
import { spiderResultEq } from './exec-match';
import { rowKey, type PyRow } from './py-values';

/** Combinations of tied rows compared at most (LIMIT 1 needs one per tied row). */
const MAX_CHOICES = 500;

/**
 * Whether `pred` is the reference's answer with other rows tied at its cut: the probe's rows
 * (in the reference's order, `keys` key cells last) before the cut, then tied ones. False when no
 * row is tied with the last one kept (then the LIMIT chose nothing).
 */
export function keepsOtherTiedRows(
  probeRows: readonly PyRow[],
  probe: Pick<TieProbe, 'keys' | 'limit'>,
  pred: readonly PyRow[],
  options: { orderMatters: boolean },
): boolean {
  const { keys, limit } = probe;
  if (probeRows.length <= limit || pred.length !== limit) return false;
  const width = probeRows[0].length - keys;
  const keyOf = (row: PyRow) => rowKey(row.slice(width));
  const cut = keyOf(probeRows[limit - 1]);
  if (keyOf(probeRows[limit]) !== cut) return false;
  const firstTied = probeRows.findIndex((r) => keyOf(r) === cut);
  const before = probeRows.slice(0, firstTied).map((r) => r.slice(0, width));
  const tied = probeRows.filter((r) => keyOf(r) === cut).map((r) => r.slice(0, width));
  const need = limit - before.length;
  if (!spiderResultEq(before, pred.slice(0, before.length) as PyRow[], options)) return false;
  const rest = pred.slice(before.length) as PyRow[];
  // Tied rows come in any order: the rest is compared as a bag with each choice of them.
  let tried = 0;
  for (const choice of choices(tied.length, need)) {
    if (++tried > MAX_CHOICES) return false;
    if (
      spiderResultEq(
        choice.map((i) => tied[i]),
        rest,
        { orderMatters: false },
      )
    )
      return true;
  }
  return false;
}

/** Every way to pick `k` of `n` positions, in order. */
function* choices(n: number, k: number, from = 0, picked: number[] = []): Generator<number[]> {
  if (picked.length === k) {
    yield picked;
    return;
  }
  for (let i = from; i <= n - (k - picked.length); i++) yield* choices(n, k, i + 1, [...picked, i]);
}

export { tieProbe, type TieProbe } from '../sql/limit-ties';
