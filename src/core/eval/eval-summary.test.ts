import { describe, expect, it } from 'vitest';
import { NO_COST, type QuestionRecord } from './eval-record';
import { evalMarkdown } from './eval-markdown';
import { distribution, summarize } from './eval-summary';

const record = (id: number, r: Partial<QuestionRecord>): QuestionRecord => ({
  id: String(id),
  index: id,
  dbId: 'db',
  question: `q${id} | with a pipe`,
  difficulty: 'easy',
  joinedTables: 1,
  status: 'correct',
  reason: null,
  goldSql: 'SELECT 1',
  finalSql: 'SELECT 1',
  ex: 1,
  softF1: null,
  verdict: 'match',
  miss: null,
  cost: { ...NO_COST, inputTokens: 1000 * id, outputTokens: 10, requests: id, seconds: id },
  transcript: null,
  finishedAt: '',
  ...r,
});

describe('evaluation summary', () => {
  it('takes nearest-rank percentiles', () => {
    expect(distribution([5, 1, 4, 2, 3, 6, 7, 8, 9, 10])).toEqual({ mean: 5.5, p50: 5, p90: 9, p95: 10, max: 10 });
    expect(distribution([])).toEqual({ mean: 0, p50: 0, p90: 0, p95: 0, max: 0 });
  });

  it('scores over the scored questions only, by difficulty and tables, with the cost of those', () => {
    const records = [
      record(1, {}),
      record(2, { status: 'wrong', ex: 0, miss: 'reasoning', difficulty: 'hard', joinedTables: 3 }),
      record(3, { status: 'wrong', ex: 0, miss: 'format', difficulty: 'hard', joinedTables: 5 }),
      record(4, { status: 'failed', ex: null, reason: 'llm_server: down' }),
      record(5, { status: 'skipped', ex: null, reason: 'no turn file' }),
    ];
    const { summary, details } = summarize(records, { softF1: false, selected: 7 });
    expect(summary).toMatchObject({ ex: 33.33, n: 3, skipped: 1, failed: 1 });
    expect(summary.byDifficulty).toEqual({ easy: { n: 1, ex: 100 }, hard: { n: 2, ex: 0 } });
    expect(summary.tokensPerQuestion.input.mean).toBe(2000);
    expect(summary.requestsPerQuestion).toMatchObject({ mean: 2, max: 3 });
    expect(details.byJoinedTables).toEqual({ '1': { n: 1, ex: 100 }, '3': { n: 1, ex: 0 }, '4+': { n: 1, ex: 0 } });
    expect(details).toMatchObject({
      pending: 2,
      failedReasons: { llm_server: 1 },
      skippedReasons: { 'no turn file': 1 },
    });
    expect(details.misses).toMatchObject({ reasoning: 1, format: 1, selected_column: 0 });
    expect('softF1' in summary).toBe(false);
    const md = evalMarkdown({ title: 'T', facts: ['a'] }, summary, details);
    expect(md).toContain('| hard | 2 | 0.00 |');
    expect(md).toContain('| input tokens | 2,000 | 2,000 | 3,000 | 3,000 | 3,000 |');
    expect(md).toContain('not yet run 2');
  });

  it('averages soft F1 for BIRD', () => {
    const { summary } = summarize([record(1, { softF1: 1 }), record(2, { ex: 0, status: 'wrong', softF1: 0.5 })], {
      softF1: true,
    });
    expect(summary).toMatchObject({ ex: 50, softF1: 75 });
  });
});
