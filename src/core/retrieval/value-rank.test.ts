import { describe, expect, it } from 'vitest';
import { rankValue, sameStem, toRankQuery, wordCredit } from './value-rank';

const ctx = { idf: () => 1, maxRows: 100 };
const score = (query: string, value: string) => rankValue(toRankQuery(query), value, 1, ctx);

describe('rankValue', () => {
  it('gives words credit for equality, a cut-short last word, the same stem and one edit', () => {
    expect(wordCredit('paris', 'paris', false)).toBe(1);
    expect(wordCredit('spri', 'springfield', true)).toBe(0.9);
    expect(wordCredit('spri', 'springfield', false)).toBe(0);
    expect(wordCredit('asian', 'asia', false)).toBe(0.7);
    expect(wordCredit('pairs', 'paris', false)).toBe(0.7);
    expect(sameStem('engineering', 'engineer')).toBe(true);
    expect(sameStem('are', 'area')).toBe(false); // too short to be a stem
  });

  it('ranks exact first, then a value that starts with the query, then a near spelling', () => {
    expect(score('New York', 'new york').match).toBe('exact');
    expect(score('New Yo', 'new york')).toMatchObject({ match: 'prefix' });
    expect(score('Nwe York', 'new york').match).toBe('fuzzy');
    expect(score('New York', 'new york').score).toBeGreaterThan(score('New Yo', 'new york').score);
  });

  it('lets function words of a question count little', () => {
    const question = 'Which countries are in Africa?';
    expect(toRankQuery(question)).toMatchObject({ hasContent: true, lastIsPartial: false });
    expect(score(question, 'africa').score).toBeGreaterThan(2 * score(question, 'are').score);
    // a query made only of function words keeps them
    expect(score('The Who', 'the who').match).toBe('exact');
    expect(toRankQuery('the who').hasContent).toBe(false);
  });
});
