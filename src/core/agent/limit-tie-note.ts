// Ties at an answer's LIMIT (issue 37): "the customer with the most orders" answered with ORDER BY
// … LIMIT 1 keeps one of the customers tied for the most, and which one is the engine's pick. The
// person is told, in the answer's note, when the row after the cut ties with the last one kept. It
// is said, not checked: no request is made for it (a rewrite that returns every tied row answers
// another question as often as the right one), and the person decides.

import { tieProbe, tieProbeByAliasSql, tieProbeSql, tiedAtCut } from '../sql/limit-ties';
import type { ToolCallOutcome } from '../tools/registry';
import { readSqlOutcome } from './sql-outcome';

/** Above this LIMIT the cut is a page of rows, not a pick: no probe. */
export const LIMIT_TIE_MAX = 10;

/** The note for an answer whose LIMIT cut among equal ORDER BY values, or null (no tie, or no probe). */
export async function limitTieNote(
  sql: string,
  run: (sql: string) => Promise<ToolCallOutcome>,
): Promise<string | null> {
  const probe = tieProbe(sql);
  if (!probe || probe.limit > LIMIT_TIE_MAX) return null;
  // Keys as expressions (count(*)) are selected beside the columns; an alias only outside them.
  let read = readSqlOutcome(await run(tieProbeSql(probe)));
  if (!read?.ok) read = readSqlOutcome(await run(tieProbeByAliasSql(probe)));
  if (!read?.ok || !tiedAtCut(read.rows, probe)) return null;
  return probe.limit === 1
    ? 'Another row ties with the one shown on the ORDER BY value: LIMIT 1 picked one of them.'
    : `A row after the first ${probe.limit} ties with the last one shown on the ORDER BY value: LIMIT ${probe.limit} cut among them.`;
}
