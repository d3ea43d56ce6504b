// Structure-linker hints for the agent's prompt: which question words look like which tables,
// columns or values, written as data (spans and values quoted as JSON strings).

import { promptIdent } from '../prompt/schema-text';
import type { QuestionLink } from '../retrieval/linker';
import { jsonData, valueData } from '../tools/quote-data';

const MAX_LINK_HINTS = 12;

/** At most this many "may be part of" links: they are the weakest and the noisiest. */
const MAX_PARTIAL_HINTS = 4;

/**
 * Structure-linker hints: which question words look like which tables, columns or values. Exact
 * and value links are kept; a partial link is dropped when a stronger link already explains the
 * same words, and the rest are capped, best first.
 */
export function linkHints(links: readonly QuestionLink[]): string {
  const sorted = [...links].sort((a, b) => b.score - a.score);
  const strong = sorted.filter((l) => l.kind !== 'partial');
  const explained = (l: QuestionLink) =>
    strong.some((s) => s.start <= l.start && s.end >= l.end) ||
    strong.some((s) => s.table === l.table && (s.column ?? '') === (l.column ?? ''));
  const partial = sorted.filter((l) => l.kind === 'partial' && !explained(l)).slice(0, MAX_PARTIAL_HINTS);
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const l of [...strong, ...partial]) {
    const target = l.column ? `${promptIdent(l.table)}.${promptIdent(l.column)}` : promptIdent(l.table);
    const what =
      l.kind === 'value'
        ? `the value ${valueData(l.value ?? '')} in ${target}`
        : `${l.kind === 'exact' ? 'names' : 'may be part of'} ${l.column ? 'column' : 'table'} ${target}`;
    const line = `- ${jsonData(l.text)}: ${what}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
    if (lines.length === MAX_LINK_HINTS) break;
  }
  return lines.join('\n');
}
