// Structure linker (after SGU-SQL): links spans of the question to schema items — exact (the
// span is a table or column name), partial (the span is part of a name), value (the span is a
// cell value, found through SearchValue). Deterministic; seeds the plan and highlights the question.

import type { Schema } from '../types';
import type { ValueLookup } from './types';
import { identifierTerms, isStopword, stemAll } from './text';
import type { ValueLink } from './column-index';
import { normalizeValue } from './value-text';
import { osaDistance } from '../text/edit-distance';
import { dropPossessives, foldCase, splitIdentifier, words, wordSpans } from '../text/normalize';

export interface QuestionLink {
  /** Character offsets in the question. */
  start: number;
  end: number;
  text: string;
  kind: 'exact' | 'partial' | 'value';
  table: string;
  column?: string;
  value?: string;
  score: number;
  /** A value link whose span is not the value as written: a close spelling, or the same letters without spaces. */
  spelling?: 'close' | 'compact';
}

/** A word of the question as the linker reads it: `lower` is folded, a possessive dropped. */
export interface LinkerWord {
  text: string;
  lower: string;
  stem: string;
  start: number;
  end: number;
}

const MAX_NGRAM = 4;

/** The question's words as text/normalize.ts cuts them (the privacy gate reads the same ones). */
export function linkerWords(question: string): LinkerWord[] {
  return wordSpans(question).map(({ text, start, end }) => {
    const lower = foldCase(dropPossessives(text));
    return { text, lower, stem: stemAll([lower])[0], start, end };
  });
}

interface Named {
  table: string;
  column?: string;
  stems: string;
  parts: string[];
}

function schemaNames(schema: Schema): Named[] {
  const named: Named[] = [];
  for (const t of schema.tables) {
    named.push({ table: t.name, stems: stemAll(splitIdentifier(t.name)).join(' '), parts: identifierTerms(t.name) });
    for (const c of t.columns)
      named.push({
        table: t.name,
        column: c.name,
        stems: stemAll(splitIdentifier(c.name)).join(' '),
        parts: identifierTerms(c.name),
      });
  }
  return named;
}

export function linkQuestion(question: string, schema: Schema, values?: ValueLookup): QuestionLink[] {
  const ws = linkerWords(question);
  const named = schemaNames(schema);
  const byStems = new Map<string, Named[]>();
  for (const n of named) byStems.set(n.stems, [...(byStems.get(n.stems) ?? []), n]);
  // How many names share a part: a part shared by many names ("id", "name") links weakly.
  const partFrequency = new Map<string, number>();
  for (const n of named) for (const p of new Set(n.parts)) partFrequency.set(p, (partFrequency.get(p) ?? 0) + 1);

  const links: QuestionLink[] = [];
  const span = (i: number, j: number) => ({
    start: ws[i].start,
    end: ws[j].end,
    text: question.slice(ws[i].start, ws[j].end),
  });

  for (let i = 0; i < ws.length; i++) {
    for (let len = Math.min(MAX_NGRAM, ws.length - i); len >= 1; len--) {
      const gram = ws.slice(i, i + len);
      if (gram.every((w) => isStopword(w.lower))) continue;
      const stems = gram.map((w) => w.stem).join(' ');
      for (const n of byStems.get(stems) ?? []) {
        links.push({
          ...span(i, i + len - 1),
          kind: 'exact',
          table: n.table,
          column: n.column,
          score: n.column ? 0.9 : 1,
        });
      }
      // Joined words: "high schoolers" names the table Highschooler.
      if (len >= 2) {
        const joined = stemAll([gram.map((w) => w.lower).join('')]).join(' ');
        for (const n of byStems.get(joined) ?? [])
          if (!n.stems.includes(' '))
            links.push({
              ...span(i, i + len - 1),
              kind: 'exact',
              table: n.table,
              column: n.column,
              score: n.column ? 0.85 : 0.95,
            });
      }
      // A stop word at either end ("Aberdeen or") belongs to the sentence, not to a value, unless
      // the value holds it whole ("The Beatles").
      const edgeStopword = isStopword(gram[0].lower) || isStopword(gram[gram.length - 1].lower);
      if (values && !(len === 1 && gram[0].lower.length < 3)) {
        // Possessives link to the value: "Kyle's" looks up "Kyle".
        const phrase = gram.map((w) => dropPossessives(w.text)).join(' ');
        const p = foldCase(phrase);
        const pWords = normalizeValue(phrase);
        for (const hit of values.search(phrase, { k: 3 })) {
          // Both sides folded the same way: "Zurich" and "Zürich" are one value, as in the value index.
          const v = foldCase(hit.value);
          // Only whole-value matches link: "Paris" -> 'Paris', not every value containing "Paris".
          const exactish = v === p || normalizeValue(hit.value) === pWords;
          // A misspelt whole value ("Pairs" for 'Paris'), not a word found inside a long text.
          const close =
            !exactish &&
            !edgeStopword &&
            p.length >= 5 &&
            osaDistance(v, p, 2) <= (p.length >= 8 ? 2 : 1) &&
            misspeltWordsAreLong(p, v);
          // The same letters without the spaces: "North Carolina" and the stored "NorthCarolina".
          const compact = !exactish && !close && hit.match === 'compact';
          if (exactish || close || compact)
            links.push({
              ...span(i, i + len - 1),
              kind: 'value',
              table: hit.table,
              column: hit.column,
              value: hit.value,
              score: exactish ? 1 : compact ? 0.9 : 0.6,
              ...(exactish ? {} : { spelling: compact ? ('compact' as const) : ('close' as const) }),
            });
        }
      }
    }
    // Partial: one word that is a distinctive part of a longer name.
    const w = ws[i];
    if (isStopword(w.lower) || w.lower.length < 3) continue;
    for (const n of named) {
      if (n.parts.length < 2 || !n.parts.includes(w.stem)) continue;
      if (
        links.some(
          (l) =>
            l.kind === 'exact' && l.start <= w.start && l.end >= w.end && l.table === n.table && l.column === n.column,
        )
      )
        continue;
      const share = partFrequency.get(w.stem) ?? 1;
      links.push({
        start: w.start,
        end: w.end,
        text: w.text,
        kind: 'partial',
        table: n.table,
        column: n.column,
        score: Math.round((0.5 / Math.sqrt(share)) * 1000) / 1000,
      });
    }
  }
  return withEvidence(links).sort(
    (a, b) => a.start - b.start || b.score - a.score || b.end - b.start - (a.end - a.start),
  );
}

/** One question word: no space or punctuation inside (a possessive's apostrophe is part of it). */
function isOneWord(text: string): boolean {
  const spans = wordSpans(text);
  return spans.length === 1 && spans[0].start === 0 && spans[0].end === text.length;
}

/**
 * The links a model or a ranking may lean on. A value link needs a whole stored value matched by
 * its span (linkQuestion's rule), and it is dropped when its span is one word that also names a
 * table or column (an exact link covering the span): the word then most likely names the data
 * ("papers" the table Paper), not one of its values (the template type 'Paper').
 */
export function withEvidence<L extends QuestionLink>(links: readonly L[]): L[] {
  const named = links.filter((l) => l.kind === 'exact');
  return links.filter(
    (l) => l.kind !== 'value' || !isOneWord(l.text) || !named.some((n) => n.start <= l.start && n.end >= l.end),
  );
}

/**
 * In a phrase of several words, each word that differs from the value's must be long enough to
 * be a typo rather than another word: "many languages" is not a misspelling of 'Maya Languages'
 * ("many" and "maya" are both words), "Pairs" is one of 'Paris'.
 */
const MIN_MISSPELT_WORD = 5;
function misspeltWordsAreLong(phrase: string, value: string): boolean {
  const a = words(phrase);
  const b = words(value);
  if (a.length < 2 || a.length !== b.length) return true;
  return a.every((w, i) => w === b[i] || w.length >= MIN_MISSPELT_WORD);
}

/** The value links of a linking, for SearchColumn's value boost. */
export function valueLinksOf(links: QuestionLink[]): ValueLink[] {
  return links
    .filter((l) => l.kind === 'value' && l.column)
    .map((l) => ({ table: l.table, column: l.column!, value: l.value!, score: l.score }));
}
