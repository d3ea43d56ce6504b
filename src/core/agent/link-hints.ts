// Structure-linker hints for the agent's prompt: which question words look like which tables,
// columns or values, written as data (spans and values quoted as JSON strings).

import { promptIdent } from '../prompt/schema-text';
import { withEvidence, type QuestionLink } from '../retrieval/linker';
import { words } from '../text/normalize';
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

// A close spelling is evidence of a typo or of another word ("Asian" and the city "Asan"): said
// so, the model weighs it against the question instead of writing it in as stored.
const valueHint = (l: QuestionLink): Hint => ({
  line: looksMisspelt(l)
    ? `- ${jsonData(l.text)}: close to the value ${valueData(l.value ?? '')} in ${identOf(l)} (not written the same: a misspelling, or another value)`
    : `- ${jsonData(l.text)}: the value ${valueData(l.value ?? '')} in ${identOf(l)}`,
  tables: [l.table],
  names: [targetOf(l)],
  partial: false,
});

/**
 * How a close spelling differs from the value: by a plural ending (s, es: the same thing counted,
 * "books" and 'Book'); by another ending, so another word of the same stem ("America" and
 * "American", "Asia" and "Asian": no evidence of the value); or otherwise (a typo, or a word that
 * only looks alike, "Asian" and "Asan").
 */
function spellingDifference(span: string, value: string): 'plural' | 'other word' | 'typo' {
  const a = words(span);
  const b = words(value);
  if (a.length !== b.length) return 'typo';
  let plural = false;
  for (const [i, x] of a.entries()) {
    const y = b[i];
    if (x === y) continue;
    const [short, long] = x.length < y.length ? [x, y] : [y, x];
    if (!long.startsWith(short)) return 'typo';
    const ending = long.slice(short.length);
    if (ending !== 's' && ending !== 'es') return 'other word';
    plural = true;
  }
  return plural ? 'plural' : 'typo';
}

const looksMisspelt = (l: QuestionLink) =>
  l.spelling === 'close' && spellingDifference(l.text, l.value ?? '') === 'typo';

/** A one-word span whose values lie in this many columns or more says nothing about which one. */
const GENERIC_COLUMNS = 3;

/**
 * The value links worth a hint (issue 37, item 2). For each span only its best links (a whole
 * value before a close spelling); a close spelling that is another form of the word is none; a
 * span inside a longer one that is a whole stored value belongs to that value ("American" inside
 * "American Motor Company"); and a single word stored in three or more columns ("active") is a
 * hint only in a table the question names, else none.
 */
export function valueLinksWithEvidence(links: readonly QuestionLink[]): QuestionLink[] {
  const values = withEvidence(links).filter(
    (l) =>
      l.kind === 'value' && !(l.spelling === 'close' && spellingDifference(l.text, l.value ?? '') === 'other word'),
  );
  const whole = values.filter((l) => !l.spelling);
  const inside = (l: QuestionLink) =>
    whole.some((w) => w.start <= l.start && w.end >= l.end && w.end - w.start > l.end - l.start);
  const named = new Set(links.filter((l) => l.kind === 'exact' || l.kind === 'partial').map((l) => l.table));
  const bySpan = new Map<string, QuestionLink[]>();
  for (const l of values) {
    if (inside(l)) continue;
    const key = `${l.start}:${l.end}`;
    bySpan.set(key, [...(bySpan.get(key) ?? []), l]);
  }
  const out: QuestionLink[] = [];
  for (const group of bySpan.values()) {
    const best = Math.max(...group.map((l) => l.score));
    const top = group.filter((l) => l.score === best);
    const columns = new Set(top.map((l) => `${l.table}\u0000${l.column ?? ''}`));
    if (columns.size >= GENERIC_COLUMNS && words(top[0].text).length === 1)
      out.push(...top.filter((l) => named.has(l.table)));
    else out.push(...top);
  }
  return out;
}

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
  const valued = new Set(valueLinksWithEvidence(links));
  const sorted = withEvidence(links)
    .filter((l) => l.kind !== 'value' || valued.has(l))
    .sort((a, b) => b.score - a.score);
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
