// Structure-linker hints for the agent's prompt: which question words look like which tables,
// columns or values, written as data (spans and values quoted as JSON strings).

import { promptIdent } from '../prompt/schema-text';
import { withEvidence, type QuestionLink } from '../retrieval/linker';
import { jsonData, valueData } from '../tools/quote-data';

const MAX_LINK_HINTS = 12;

/** At most this many "may be part of" lines: they are the weakest and the noisiest. */
const MAX_PARTIAL_HINTS = 4;

/** Names listed on one line for one span; past this, "…" and how many more. */
const MAX_TARGETS = 6;

export interface LinkHintOptions {
  /**
   * The prompt already lists every table with its columns. Name links (exact, partial) then add
   * nothing the model cannot read itself, and mislead when they pick one of several names: only
   * value links are sent.
   */
  columnsListed?: boolean;
}

interface Hint {
  line: string;
  /** Tables the line names: the cap keeps one line per table before any repeat. */
  tables: string[];
  /** Tables and columns the line names: then one line per name before any repeat. */
  names: string[];
  partial: boolean;
}

const identOf = (l: QuestionLink) =>
  l.column ? `${promptIdent(l.table)}.${promptIdent(l.column)}` : promptIdent(l.table);

const targetOf = (l: QuestionLink) => `${l.column ? 'column' : 'table'} ${identOf(l)}`;

/** One line for one span's name links of one kind: every name it may mean, never one pick. */
function nameHint(group: readonly QuestionLink[]): Hint {
  const verb = group[0].kind === 'exact' ? 'names' : 'may be part of';
  const targets: string[] = [];
  const tables: string[] = [];
  for (const l of group) {
    const t = targetOf(l);
    if (targets.includes(t)) continue;
    targets.push(t);
    if (targets.length <= MAX_TARGETS) tables.push(l.table);
  }
  const names = targets.slice(0, MAX_TARGETS);
  const shown = names.join(', ');
  const what =
    targets.length === 1
      ? `${verb} ${shown}`
      : `${verb} one of: ${shown}${targets.length > MAX_TARGETS ? `, … (${targets.length - MAX_TARGETS} more)` : ''}`;
  return { line: `- ${jsonData(group[0].text)}: ${what}`, tables, names, partial: group[0].kind === 'partial' };
}

const valueHint = (l: QuestionLink): Hint => ({
  line: `- ${jsonData(l.text)}: the value ${valueData(l.value ?? '')} in ${identOf(l)}`,
  tables: [l.table],
  names: [targetOf(l)],
  partial: false,
});

/**
 * Structure-linker hints: which question words look like which tables, columns or values.
 *
 * Value links are kept when they have evidence (`withEvidence`: a whole stored value, and not a
 * single word that also names a table or column). Without `columnsListed`, exact links are kept,
 * a partial link is dropped when a stronger link already explains the same words, and a span's
 * names of one kind make one line listing them all (at most MAX_TARGETS, then a count). With
 * `columnsListed`, only value links are sent.
 *
 * The cap (MAX_LINK_HINTS lines, MAX_PARTIAL_HINTS of them partial) counts lines, and a span's
 * names are one line, so it cuts spans, never one name of a span. It is taken in three passes over
 * the lines, strongest first: the first takes only lines naming a table no taken line names yet,
 * the second only lines naming a table or column not yet named, the third fills what is left. So
 * a line is cut only when every table it names is already named by a kept line, unless more
 * distinct tables are linked than the caps allow. The kept lines are written strongest first.
 */
export function linkHints(links: readonly QuestionLink[], options: LinkHintOptions = {}): string {
  const sorted = withEvidence(links).sort((a, b) => b.score - a.score);
  if (options.columnsListed) return lines(sorted.filter((l) => l.kind === 'value').map(valueHint));
  const strong = sorted.filter((l) => l.kind !== 'partial');
  const explained = (l: QuestionLink) =>
    strong.some((s) => s.start <= l.start && s.end >= l.end) ||
    strong.some((s) => s.table === l.table && (s.column ?? '') === (l.column ?? ''));
  // A span's names of one kind form one group, placed where its best link stands in score order.
  const groups = new Map<string, QuestionLink[] | QuestionLink>();
  for (const [i, l] of sorted.entries()) {
    if (l.kind === 'partial' && explained(l)) continue;
    if (l.kind === 'value') groups.set(`value:${i}`, l);
    else {
      const key = `${l.kind}:${l.start}:${l.end}`;
      const group = groups.get(key);
      if (Array.isArray(group)) group.push(l);
      else groups.set(key, [l]);
    }
  }
  const hints = [...groups.values()].map((g) => (Array.isArray(g) ? nameHint(g) : valueHint(g)));
  // Exact and value lines before the partial ones, each in score order.
  return lines([...hints.filter((h) => !h.partial), ...hints.filter((h) => h.partial)]);
}

/** The lines within the caps, each table and then each name first (see linkHints), in their given order. */
function lines(hints: readonly Hint[]): string {
  const unique = hints.filter((h, i) => hints.findIndex((o) => o.line === h.line) === i);
  const taken = new Set<Hint>();
  const tables = new Set<string>();
  const names = new Set<string>();
  let partials = 0;
  const room = (h: Hint) =>
    !taken.has(h) && taken.size < MAX_LINK_HINTS && (!h.partial || partials < MAX_PARTIAL_HINTS);
  const pass = (wanted: (h: Hint) => boolean) => {
    for (const h of unique) {
      if (!room(h) || !wanted(h)) continue;
      taken.add(h);
      for (const t of h.tables) tables.add(t);
      for (const n of h.names) names.add(n);
      if (h.partial) partials++;
    }
  };
  pass((h) => h.tables.some((t) => !tables.has(t)));
  pass((h) => h.names.some((n) => !names.has(n)));
  pass(() => true);
  return unique
    .filter((h) => taken.has(h))
    .map((h) => h.line)
    .join('\n');
}

/**
 * Value links only, with the same evidence rules and line format, for a prompt that shows the
 * whole schema (its names need no hint).
 */
export function valueLinkHints(links: readonly QuestionLink[]): string {
  return linkHints(links, { columnsListed: true });
}
