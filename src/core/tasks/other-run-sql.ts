// SQL a task is asked about that a run wrote — the answer Ask put in the editor, then Explain,
// Fix or Optimize on it — may hold values that run read at a fuller privacy level (issue 35's
// marker test: an answer at full, the level lowered, Explain sent `name = 'Isaura Thornquist'`).
// Its literals then go to the model marked, as an earlier turn's do (`sqlData`); and the model's
// rewrite, which can only keep the places of what it could not see, gets those values back before
// it runs, so Fix and Optimize still work below full.

import { valueAllowed, WITHHELD_VALUE, type PrivacyPolicy } from '../privacy/disclose';
import { jsonData, schemaNames, sqlData, sqlValueParts } from '../tools/quote-data';
import type { Schema } from '../types';

/** The SQL as a task's prompt carries it: marked when another run wrote it. */
export function taskSqlText(sql: string, schema: Schema, fromAnotherRun: boolean | undefined): string {
  return fromAnotherRun ? sqlData(sql, schemaNames(schema)) : jsonData(sql);
}

const PLACEHOLDER = new RegExp(`'${WITHHELD_VALUE}'|"${WITHHELD_VALUE}"|${WITHHELD_VALUE}`, 'g');

/** A task's refusal of a rewrite that kept places of withheld values it could not be given back. */
export const WITHHELD_KEPT =
  "The model's SQL keeps places of values the privacy level withheld from it, in another number than the query has them, so they could not be put back: write them in yourself, or choose the full level for this task.";

export interface Restored {
  sql: string;
  /** Places left withheld: the rewrite kept a number of them the original does not have. */
  unresolved: boolean;
}

/**
 * `reply` (the model's SQL) with each withheld value put back: the i-th place it kept gets the
 * i-th literal of `original` that the gate withheld at `policy`. When the counts differ and the
 * withheld values are not all the same, nothing is guessed: `unresolved`.
 */
export function restoreWithheld(reply: string, original: string, policy: PrivacyPolicy, schema: Schema): Restored {
  const withheld = sqlValueParts(original, schemaNames(schema)).filter((p) => !valueAllowed(p.body, policy));
  const kept = reply.match(PLACEHOLDER)?.length ?? 0;
  if (!withheld.length || !kept) return { sql: reply, unresolved: kept > 0 };
  const alike = withheld.every((w) => w.text === withheld[0].text);
  if (kept !== withheld.length && !alike) return { sql: reply, unresolved: true };
  let i = 0;
  return {
    sql: reply.replace(PLACEHOLDER, () => withheld[Math.min(i++, withheld.length - 1)].text),
    unresolved: false,
  };
}
