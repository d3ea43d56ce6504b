import { describe, expect, it } from 'vitest';
import { checkEvidence, explanationFromReply, withoutExplanation } from './answer-evidence';
import { sqlFromReply } from './direct-prompt';

const seen = (over: Partial<Parameters<typeof checkEvidence>[0]>) =>
  checkEvidence({
    question: 'Which cities have a store?',
    sql: 'SELECT city FROM stores',
    columns: ['city'],
    rows: [['Oslo'], ['Lima']],
    totalRows: 2,
    explanation: 'The cities with a store.',
    ...over,
  });

describe('checkEvidence', () => {
  it('finds nothing to check in a plain result the reply explained', () => {
    expect(seen({})).toEqual([]);
  });

  // Issue 37: "those 12" after an answer of 20 could not be noticed.
  it('finds a follow-up whose numbers disagree with the answer before it', () => {
    const before = { totalRows: 20 };
    expect(seen({ question: 'Of those 12, which are in Peru?', previous: before })).toEqual([
      'the question speaks of "those 12" and the answer before had 20 rows',
    ]);
    expect(seen({ question: 'Of those 20, which are in Peru?', previous: before })).toEqual([]);
    const longer = { rows: [['Oslo'], ['Lima']], totalRows: 35 };
    expect(seen({ question: 'Which of these are by the sea?', previous: before, ...longer })).toEqual([
      'the question keeps part of the answer before (20 rows) and this result has 35 (which can be right where each has several)',
    ]);
    expect(seen({ question: 'Which of these are by the sea?', previous: { totalRows: 40 }, ...longer })).toEqual([]);
    // Not narrowing ("and their mayors?"), or no answer before: nothing to compare.
    expect(seen({ question: 'And their mayors?', previous: before, ...longer })).toEqual([]);
    expect(seen({ question: 'Of those 12, which are in Peru?', previous: null })).toEqual([]);
  });

  it('names each reason to doubt a result', () => {
    expect(seen({ rows: [], totalRows: 0 })).toEqual(['the result is empty (which can be the right answer)']);
    expect(seen({ rows: [[null]], totalRows: 1 })).toEqual(['the result is one row of NULL or 0']);
    expect(
      seen({
        columns: ['city', 'mayor'],
        rows: [
          ['Oslo', null],
          ['Lima', null],
        ],
      }),
    ).toEqual(['every value of "mayor" is NULL']);
    expect(seen({ explanation: null })).toEqual(['the reply had no explanation']);
    expect(seen({ question: 'How many stores are there?', rows: [[3], [4]] })).toEqual([
      'the question asks for one number and the result has 2 rows',
    ]);
    // Grouped (outside a subquery), several counts are what was asked for.
    expect(
      seen({ question: 'How many stores per city?', sql: 'SELECT city, count(*) FROM stores GROUP BY city' }),
    ).toEqual([]);
    expect(
      seen({
        question: 'How many stores?',
        sql: 'SELECT n FROM (SELECT city, count(*) AS n FROM stores GROUP BY city)',
      }),
    ).toEqual(['the question asks for one number and the result has 2 rows']);
  });
});

describe('explanationFromReply', () => {
  it('reads the explanation after a fenced block, after bare SQL, or before the block', () => {
    expect(explanationFromReply('```sql\nSELECT 1\n```\nExplanation: One row with 1.')).toBe('One row with 1.');
    expect(explanationFromReply('SELECT 1\n**Explanation:** One row.\nIt is 1.')).toBe('One row.\nIt is 1.');
    expect(explanationFromReply('Explanation: The count.\n```sql\nSELECT count(*) FROM t\n```')).toBe('The count.');
    expect(explanationFromReply('```sql\nSELECT 1\n```')).toBeNull();
    expect(explanationFromReply('SELECT 1\nExplanation:   ')).toBeNull();
  });

  it('leaves the SQL whole: bare SQL ends where its explanation starts', () => {
    expect(withoutExplanation('SELECT 1\nExplanation: x')).toBe('SELECT 1\n');
    expect(sqlFromReply('SELECT name FROM t\nExplanation: The names.')).toBe('SELECT name FROM t');
    expect(sqlFromReply('Explanation: The names.\n```sql\nSELECT name FROM t\n```')).toBe('SELECT name FROM t');
  });
});
