// Evidence that a query compares a column with a value the column does not hold as written —
// `PetType = 'kitten'` where the column stores 'cat' and 'dog' — found with the agent's own
// search_value tool, whose observation (stored values, nearest spellings) is handed back to the
// model as it is. Used by Auto after a query ran (issue 22): the value check is one of the reasons
// to spend another request.

import type { Schema } from '../types';
import { promptIdent } from '../prompt/schema-text';
import { isDateLike } from '../retrieval/value-text';
import { comparedLiterals, literalHolders, tableAliases } from '../sql/compared-literals';
import { jsonData, valueData } from '../tools/quote-data';
import type { AgentTools } from './loop';

/** Literals checked per query at most (each is one search). */
const MAX_CHECKS = 4;

interface Hit {
  value: string;
}

export interface ValueEvidence {
  /** Each compared value a column does not hold as written, with what the search found. */
  unstored: string[];
  /** The compared values found stored as written, `"Paris" in customers.city`, marked as data. */
  stored: string[];
}

export async function checkStoredValues(
  sql: string,
  schema: Schema,
  tools: AgentTools,
  signal?: AbortSignal,
): Promise<ValueEvidence> {
  const aliases = tableAliases(sql, schema);
  const lines: string[] = [];
  const found: string[] = [];
  const seen = new Set<string>();
  let checks = 0;
  for (const lit of comparedLiterals(sql)) {
    if (!lit.value.trim() || isDateLike(lit.value.trim())) continue;
    const holders = literalHolders(lit, aliases, schema);
    if (holders.length === 0 || holders.length > 2) continue;
    const key = `${holders.join(',')}\u0000${lit.column}\u0000${lit.value}`.toLowerCase();
    if (seen.has(key) || checks >= MAX_CHECKS) continue;
    seen.add(key);
    const observations: string[] = [];
    let stored = false;
    let checked = false;
    for (const table of holders) {
      checks++;
      const outcome = await tools.call('search_value', { query: lit.value, table, column: lit.column, k: 5 }, signal);
      if (!outcome.ok) continue;
      const out = outcome.output as { problem?: string | null; hits?: Hit[] } | null;
      // Not a text column (numbers, dates): the value index cannot say; SQL's result will.
      if (!out || out.problem) continue;
      checked = true;
      const same = (h: Hit) =>
        h.value === lit.value || (lit.noCase && h.value.toLowerCase() === lit.value.toLowerCase());
      if ((out.hits ?? []).some(same)) stored = true;
      else observations.push(outcome.observation);
    }
    const where = holders.map((t) => `${promptIdent(t)}.${promptIdent(lit.column)}`).join(' or ');
    if (!checked) continue;
    if (stored) {
      found.push(`${valueData(lit.value)} in ${where}`);
      continue;
    }
    lines.push(`${jsonData(lit.value)} is not stored as written in ${where}. ${observations.join('\n')}`);
  }
  return { unstored: lines, stored: found };
}
