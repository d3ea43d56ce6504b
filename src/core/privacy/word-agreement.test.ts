// The "matches only" level lets a value out when each of its words is a word of the question.
// That is only right if the gate's words are the ones retrieval and the linker read: a value the
// linker found in the question must pass, and the gate must not read words the linker never
// saw. These tests pin the agreement on strings where word splitting usually drifts apart.

import { describe, expect, it } from 'vitest';
import { schemaOf } from '../../test-support/schema-of';
import { linkerWords, linkQuestion } from '../retrieval/linker';
import { questionWords } from '../retrieval/text';
import type { ValueLookup } from '../retrieval/types';
import { normalizeValue } from '../retrieval/value-text';
import { dropPossessives, words } from '../text/normalize';
import { quoteData } from '../tools/quote-data';
import { askedWords, discloseText, valueAllowed, WITHHELD_VALUE } from './disclose';

const QUESTIONS = [
  "Where does O'Brien live, and who are Kyle's friends?",
  'Patients in São Paulo, Zürich, Łódź or der Straße',
  'Orders from 2019 with order_id 42 or code x2y3',
  'Which customerName has the most OrderItems?',
  '東京タワー の 高さ, 서울 and Москва',
  'I ❤️ NY 🗽: 1️⃣ thing, 👍🏽 ok',
  'Acme™ ﬁnance ½ №5',
  "rock'n'roll, ‘quoted’, l’Ouest, the '90s",
  'nai\u0308ve cafe\u0301 ΟΔΟΣ',
];

const matches = (question: string) => ({ level: 'matches' as const, question });

describe('the words of a question', () => {
  it.each(QUESTIONS)('are the same for the privacy gate and the linker: %s', (q) => {
    const linked = linkerWords(q);
    expect(askedWords(q)).toEqual(new Set(linked.flatMap((w) => words(w.text))));
    // Each word the linker compares (possessive dropped) is one the gate accepts.
    for (const w of linked) for (const part of words(w.lower)) expect(askedWords(q).has(part), w.text).toBe(true);
  });

  it.each(QUESTIONS)('are the same for the privacy gate and the column index: %s', (q) => {
    expect(askedWords(q)).toEqual(new Set(words(q)));
    for (const w of questionWords(q)) expect(askedWords(q).has(w), w).toBe(true);
  });
});

/** A value store holding one value, which every search finds (the linker decides what links). */
const holding = (value: string): ValueLookup => ({
  search: () => [{ table: 'people', column: 'name', value, rows: 1, score: 1, match: 'case' }],
});

const schema = schemaOf({ people: ['person_id integer pk', 'name'] });

// A question and a value stored the way it is typed differently: accents, case, apostrophes,
// possessives, digits, underscores, camelCase, scripts without case, symbols that fold.
const LINKED: Array<[string, string]> = [
  ['Which patients live in Sao Paulo?', 'São Paulo'],
  ['Who lives in zurich', 'Zürich'],
  ['Where does O’Brien live?', "O'Brien"],
  ["Show Kyle's friends", 'Kyle'],
  ['Who lives on Strasse 5?', 'Straße 5'],
  ['Find account_42 please', 'ACCOUNT_42'],
  ['Who is customerName here', 'customerName'],
  ['How tall is 東京タワー?', '東京タワー'],
  ['Is Acme™ listed?', 'ACME™'],
  ['Who sent 🎉 party 2024 🎉', 'Party 2024'],
  ['Who is the naïve one', 'nai\u0308ve'],
];

describe('a value the linker finds in the question', () => {
  it.each(LINKED)('passes the matches gate: %s -> %s', (question, value) => {
    const links = linkQuestion(question, schema, holding(value)).filter((l) => l.kind === 'value' && l.score === 1);
    expect(links.map((l) => l.value)).toContain(value);
    expect(normalizeValue(dropPossessives(links[0].text))).toBe(normalizeValue(value));
    expect(valueAllowed(value, matches(question))).toBe(true);
    expect(discloseText(`Found ${quoteData(value)}.`, matches(question))).toBe(`Found ${JSON.stringify(value)}.`);
  });

  it('and a value the question does not hold stays withheld', () => {
    expect(valueAllowed('São Paulo Norte', matches('Which patients live in Sao Paulo?'))).toBe(false);
    expect(discloseText(`Found ${quoteData('Zürichberg')}.`, matches('Who lives in zurich'))).toBe(
      `Found ${WITHHELD_VALUE}.`,
    );
  });
});
