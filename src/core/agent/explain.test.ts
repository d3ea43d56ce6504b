import { describe, expect, it } from 'vitest';
import { unmark } from '../privacy/marks';
import type { ChatModel, ChatRequest } from '../llm/types';
import {
  CHECK_ROWS,
  CHECK_SYSTEM_START,
  explainPrompt,
  isCheckSystem,
  parseExplanation,
  requestExplanation,
} from './explain';

/** A model that keeps the system prompts it was sent and answers with a match. */
function recordingModel(systems: string[]): ChatModel {
  return {
    provider: 'test',
    model: 'test',
    supportsTools: false,
    async *stream(request: ChatRequest) {
      systems.push(String(request.messages[0]?.content));
      const text = 'Verdict: match\nExplanation: ok';
      yield { type: 'finish', response: { text, toolCalls: [], usage: null, finishReason: 'stop' } } as const;
    },
  };
}

describe('the check of a result', () => {
  it('shows up to 20 rows and the row count, enough to judge order and duplicates', () => {
    const rows = Array.from({ length: 25 }, (_, i) => [`month ${i}`, i]);
    const text = unmark(
      explainPrompt({ question: 'q', sql: 'SELECT 1', columns: ['m', 'n'], rows, totalRows: 25, checked: ['x'] }),
    );
    expect(CHECK_ROWS).toBe(20);
    expect(text).toContain('"month 19" | 19');
    expect(text).not.toContain('"month 20"');
    expect(text).toContain('(the first 20 of 25 rows shown)');
    expect(text).not.toContain('in all');
    expect(text).toContain('Checked: x');
    const all = unmark(
      explainPrompt({ question: 'q', sql: 'SELECT 1', columns: ['m', 'n'], rows: rows.slice(0, 3), totalRows: 3 }),
    );
    expect(all).toContain('(3 rows in all)');
  });

  it("names the database's engine: a PostgreSQL query is checked as one, and either is known as the check", async () => {
    const systems: string[] = [];
    const input = { question: 'q', sql: 'SELECT 1', columns: ['n'], rows: [[1]], totalRows: 1 };
    await requestExplanation(recordingModel(systems), input);
    await requestExplanation(recordingModel(systems), { ...input, dialect: 'postgres' });
    expect(systems[0].startsWith(CHECK_SYSTEM_START)).toBe(true);
    expect(systems[1]).toContain("You check whether a PostgreSQL query's result answers a question");
    expect(systems[1]).not.toContain('SQLite');
    expect(systems.map(isCheckSystem)).toEqual([true, true]);
    expect(isCheckSystem('You check one step of a plan')).toBe(false);
  });

  it('judges by the steps the person set when they edited the plan, not by the question alone (issue 25)', () => {
    const base = { question: 'Sales in 2024?', sql: 'SELECT 1', columns: ['n'], rows: [[1]], totalRows: 1 };
    expect(explainPrompt(base)).not.toContain('The person set these steps');
    const prompt = explainPrompt({ ...base, plan: ['Orders placed in 2024', 'Only delivered ones'] });
    expect(prompt).toContain(
      'The person set these steps for the answer; judge the result against the question as they read it: 1. "Orders placed in 2024" 2. "Only delivered ones"',
    );
  });

  it('reads the problem of a verdict that is not a match, and none of a match or a "none"', () => {
    expect(
      parseExplanation('Verdict: mismatch\nProblem: Months sort alphabetically.\nExplanation: Sales per month.'),
    ).toEqual({ verdict: 'mismatch', problem: 'Months sort alphabetically.', explanation: 'Sales per month.' });
    expect(parseExplanation('Verdict: unsure\nProblem: none\nExplanation: Sales.')).toEqual({
      verdict: 'unsure',
      explanation: 'Sales.',
    });
    expect(parseExplanation('Verdict: match\nProblem: the year is not asked.\nExplanation: Sales.')).toEqual({
      verdict: 'match',
      explanation: 'Sales.',
    });
  });
});
