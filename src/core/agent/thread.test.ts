import { describe, expect, it } from 'vitest';
import { discloseText } from '../privacy/disclose';
import { unmark } from '../privacy/marks';
import type { AgentEvent } from './events';
import { priorTurnOf, threadText, type PriorTurn } from './thread';

const turn = (question: string, more: Partial<PriorTurn> = {}): PriorTurn => ({
  question,
  sql: `SELECT country, sum(total) FROM invoices GROUP BY country -- ${question}`,
  columns: ['country', 'sum(total)'],
  totalRows: 24,
  rows: [
    ['USA', 523.06],
    ['Canada', 303.96],
    ['France', 195.1],
    ['Brazil', 190.1],
  ],
  ...more,
});

describe('threadText', () => {
  it('is empty without earlier turns', () => {
    expect(threadText([])).toBe('');
  });

  it('writes each turn: question, SQL, the result, the correction; three rows of the newest, one of each earlier', () => {
    const text = unmark(
      threadText([turn('Total sales per country'), turn('Only for Germany', { correction: 'use billing country' })]),
    );
    expect(text).toMatch(/^Earlier in this conversation \(newest last\)/);
    expect(text).toContain('1. Question: "Total sales per country"');
    expect(text).toContain(
      '   SQL: "SELECT country, sum(total) FROM invoices GROUP BY country -- Total sales per country"',
    );
    expect(text).toContain('   Result: 24 rows; columns "country", "sum(total)"');
    expect(text).toContain('2. Question: "Only for Germany"');
    expect(text).toContain('   The person said it was wrong: "use billing country"');
    // Issue 37, item 6: an earlier answer's count and first row, so "those 12" after 24 can be noticed.
    expect(text.match(/"USA" \| 523\.06/g)).toHaveLength(2);
    expect(text.match(/"Canada"/g)).toHaveLength(1);
    expect(text).toContain('   "USA" | 523.06\n   …\n2. Question');
    expect(text).toContain('"France" | 195.1');
    expect(text).not.toContain('"Brazil"');
  });

  it("gives a turn's clarification as who said what: the question asked back, the person's answer", () => {
    const asked = 'Did you mean the names of the courses or their ids?';
    const events: AgentEvent[] = [
      { type: 'ask', question: asked, options: ['names', 'ids'], callId: 'c1', step: 1, at: 0 },
      {
        type: 'observation',
        tool: 'ask_user',
        text: 'The person answered: "their \\"names\\""',
        ok: true,
        ms: 0,
        callId: 'c1',
        step: 1,
        at: 0,
      },
      {
        type: 'final',
        sql: 'SELECT name FROM course',
        columns: ['name'],
        rows: [['Art']],
        totalRows: 1,
        truncated: false,
        explanation: '',
        verdict: 'match',
        step: 2,
        at: 0,
      } as AgentEvent,
    ];
    const prior = priorTurnOf('Which courses?', events);
    expect(prior.clarifications).toEqual([{ asked, answer: 'their "names"' }]);
    const text = unmark(threadText([prior, turn('and their teachers?')]));
    expect(text).toContain(
      `1. Question: "Which courses?"\n   The person was asked ${JSON.stringify(asked)} and answered "their \\"names\\""\n   SQL:`,
    );
    // A default taken because nobody could answer is no answer of the person's.
    const unanswered = priorTurnOf('Which courses?', [
      { ...events[0], defaultAnswer: 'names' } as AgentEvent,
      events[2],
    ]);
    expect(unanswered.clarifications).toBeUndefined();
  });

  it('stays within its budget: older turns keep only their question, the newest is whole', () => {
    const turns = Array.from({ length: 30 }, (_, i) => turn(`question ${i}`));
    const text = threadText(turns, 300);
    expect(text).toContain('1. Question: "question 0"\n2. Question: "question 1"');
    expect(text).toContain('30. Question: "question 29"\n   SQL:');
    expect(text.length / 3.2).toBeLessThan(300 + 30 * 12);
  });

  it('marks result rows as data: below the full privacy level they do not leave', () => {
    const text = threadText([turn('Total sales per country')]);
    const schemaOnly = discloseText(text, { level: 'schema', question: 'and for Germany?' });
    expect(schemaOnly).not.toContain('USA');
    expect(schemaOnly).toContain('Result: 24 rows');
  });

  // Issue 35, item 2: SQLite names an un-aliased expression by its text, literals and all.
  it("marks the literals inside an earlier turn's column names as it marks its SQL's", () => {
    const expression = "max(CASE WHEN name='Tamsin Oakhurst' THEN code END)";
    const text = threadText([
      turn('Her code, please', { sql: `SELECT ${expression} FROM people`, columns: [expression, 'n'] }),
    ]);
    expect(unmark(text)).toContain(`columns ${JSON.stringify(expression)}, "n"`);
    for (const level of ['schema', 'matches'] as const) {
      const sent = discloseText(text, { level, question: 'and their city?' });
      expect(sent).not.toContain('Tamsin');
      expect(sent).toContain(`columns "max(CASE WHEN name='<value withheld>' THEN code END)", "n"`);
    }
  });
});
