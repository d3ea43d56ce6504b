// Codes without a stored meaning (issue 37): `gender = '1'` where the column holds "0" and "1" and
// nothing in the data says which is which. A query that compares such a column took one meaning
// for what the question names; the answer says so in its note (no request is made for it), and the
// agent may ask the person which code means what (an ambiguity signal for ask_user) — unless the
// question or the person's hints name the column or the code themselves.

import { codeColumns, type CodeColumn } from '../prompt/grounded-schema';
import { promptIdent } from '../prompt/schema-text';
import { comparedLiterals, literalHolders, tableAliases } from '../sql/compared-literals';
import { splitIdentifier, words } from '../text/normalize';
import { jsonData } from '../tools/quote-data';
import type { Schema } from '../types';
import type { Grounding } from '../prompt/grounded-schema';

/** Where the grounding is read from (the agent's tools; absent: no code is known). */
type GroundingSource = { grounding?(signal?: AbortSignal): Promise<Grounding> };

/** A code column the query compares, and the codes it took. */
export interface CodeAssumption extends CodeColumn {
  compared: string[];
}

const ONE_DIGIT = /^\d$/;

/** Whether the SQL compares any one-digit text at all: only then is the grounding read. */
export const comparesDigitCode = (sql: string) => comparedLiterals(sql).some((l) => ONE_DIGIT.test(l.value));

/** The code columns of the database, read from the tools' grounding (none when it cannot be had). */
export async function loadCodeColumns(
  tools: GroundingSource,
  schema: Schema,
  signal?: AbortSignal,
): Promise<CodeColumn[]> {
  if (!tools.grounding) return [];
  const grounding = await tools.grounding(signal).catch(() => null);
  return grounding ? codeColumns(schema, grounding) : [];
}

/**
 * The code columns `sql` compares with one of their codes, where neither the question nor the hints
 * say which code is meant (they name the column, or the code as a word of their own).
 */
export function codeAssumptions(
  sql: string,
  schema: Schema,
  codes: readonly CodeColumn[],
  said: { question: string; hints?: string },
): CodeAssumption[] {
  if (codes.length === 0) return [];
  const aliases = tableAliases(sql, schema);
  const hintWords = new Set(words(said.hints ?? ''));
  const questionWords = words(said.question);
  const out = new Map<string, CodeAssumption>();
  for (const lit of comparedLiterals(sql)) {
    // Hints that say "female refers to gender = '1'" are the person's own definition.
    if (!ONE_DIGIT.test(lit.value) || hintWords.has(lit.value)) continue;
    for (const table of literalHolders(lit, aliases, schema)) {
      const code = codes.find((c) => c.table === table && c.column.toLowerCase() === lit.column.toLowerCase());
      if (!code || !code.codes.includes(lit.value) || namesCode(questionWords, code.column, lit.value)) continue;
      const key = `${code.table}\u0000${code.column}`;
      const seen = out.get(key) ?? { ...code, compared: [] };
      if (!seen.compared.includes(lit.value)) seen.compared.push(lit.value);
      out.set(key, seen);
    }
  }
  return [...out.values()];
}

/** "status 2", "gender = 1": the question names the code right after a word of the column's name. */
function namesCode(question: readonly string[], column: string, code: string): boolean {
  const parts = new Set(splitIdentifier(column));
  return question.some((w, i) => w === code && i > 0 && parts.has(question[i - 1]));
}

const columnRef = (c: CodeColumn) => `${promptIdent(c.table)}.${promptIdent(c.column)}`;
const quoted = (values: readonly string[]) => values.map((v) => jsonData(v)).join(', ');

/** For the person, in the answer's note: which code the query took, and that the data does not say. */
export function codeAssumptionNote(found: readonly CodeAssumption[]): string | null {
  if (found.length === 0) return null;
  return found
    .map(
      (c) =>
        `${columnRef(c)} holds codes (${quoted(c.codes)}) whose meaning the data does not store: the query took ${quoted(c.compared)} for what the question names.`,
    )
    .join(' ');
}

/** For the agent, after its query ran: the same, and what it may do about it (ask, where ask_user is offered). */
export function codeAssumptionObservation(found: readonly CodeAssumption[], canAsk: boolean): string | null {
  const note = codeAssumptionNote(found);
  if (!note) return null;
  const ask = canAsk ? 'ask the person which code is which (ask_user), or ' : '';
  return `${note} If the question does not say which code is which, ${ask}say in the answer which meaning you assumed.`;
}

/** The ambiguity signal it gives (asking the person may be worth it). */
export const codeSignal = (found: readonly CodeAssumption[]) =>
  found.map((c) => `${columnRef(c)} holds codes whose meaning is not stored`).join('; ');

/** The code assumptions of each query a run makes, the grounding read once and only when needed. */
export function codeAssumptionReader(
  tools: GroundingSource,
  schema: Schema,
  said: { question: string; hints?: string },
  signal?: AbortSignal,
): (sql: string) => Promise<CodeAssumption[]> {
  let codes: Promise<CodeColumn[]> | null = null;
  return async (sql) => {
    if (!comparesDigitCode(sql)) return [];
    codes ??= loadCodeColumns(tools, schema, signal);
    return codeAssumptions(sql, schema, await codes, said);
  };
}
