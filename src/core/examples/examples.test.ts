import { describe, expect, it } from 'vitest';
import { examplesFromJson, examplesToJson, mergeExamples, similarExamples, type ConfirmedExample } from './examples';

const ex = (id: string, question: string, savedAt = '2026-11-22T10:00:00Z'): ConfirmedExample => ({
  id,
  question,
  sql: `SELECT '${id}'`,
  savedAt,
  plan: { sub_questions: [{ text: question, tables: [{ table: 'orders', columns: ['status'] }] }] },
});

describe('confirmed examples', () => {
  const examples = [
    ex('a', 'How many orders were delivered in 2024?'),
    ex('b', 'Which customers live in Canada?'),
    ex('c', 'Average rating of tents'),
  ];

  it('picks the most similar examples, best first, and none when nothing is shared', () => {
    const picked = similarExamples('How many orders were cancelled in 2023?', examples, 2);
    expect(picked[0].example.id).toBe('a');
    expect(picked.every((p) => p.score > 0)).toBe(true);
    expect(similarExamples('customers from Canada with most reviews', examples, 1)[0].example.id).toBe('b');
    expect(similarExamples('zzz qqq', examples)).toEqual([]);
  });

  it('round-trips through JSON and refuses other files', () => {
    const back = examplesFromJson(examplesToJson('demo.sqlite', examples));
    expect(back).toEqual(examples);
    expect(() => examplesFromJson('{"format":"x"}')).toThrow(/not a Dowser examples file/);
    expect(() => examplesFromJson('{"format":"dowser-examples/1","database":"d","examples":[{"id":"1"}]}')).toThrow(
      /examples\.0\.question/,
    );
  });

  it('merges imports by id, newest copy wins', () => {
    const merged = mergeExamples(examples, [
      ex('a', 'updated question', '2026-11-23T00:00:00Z'),
      ex('d', 'new one', '2026-11-21T00:00:00Z'),
    ]);
    expect(merged.map((e) => e.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(merged[0].question).toBe('updated question');
  });
});
