import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent/events';
import { runFromJson, runToJson, runToMarkdown, type ExportableRun } from './run-export';
import { sqlFileText } from './sql-file';

const ev = (e: Record<string, unknown>, step = 1): AgentEvent => ({ step, at: 1000 + step, ...e }) as AgentEvent;

const run: ExportableRun & { apiKey?: string } = {
  question: 'Which pets are dogs?',
  hints: 'species is lower case',
  dbName: 'tiny.sqlite',
  provider: 'openai',
  model: 'gpt-x',
  status: 'done',
  startedAt: Date.UTC(2026, 10, 22),
  endedAt: Date.UTC(2026, 10, 22) + 4200,
  apiKey: 'sk-must-not-leak',
  events: [
    ev({
      type: 'plan',
      plan: { sub_questions: [{ text: 'Find dogs', tables: [{ table: 'pets', columns: ['species'] }] }] },
      problems: [],
    }),
    ev({ type: 'thought_delta', text: 'Find' }),
    ev({ type: 'thought', text: 'Look up the value.' }, 2),
    ev({ type: 'action', tool: 'search_value', args: { query: 'dog' } }, 2),
    ev(
      {
        type: 'observation',
        tool: 'search_value',
        text: '"dog" in pets.species (3 rows)\n```nasty``` fence',
        ok: true,
        ms: 4,
      },
      2,
    ),
    ev(
      {
        type: 'final',
        sql: "SELECT name FROM pets WHERE species = 'dog'",
        columns: ['name', 'chip'],
        rows: [
          ['Rex | the dog', new Uint8Array([1, 255])],
          ['Big', 9007199254740993n],
        ],
        totalRows: 2,
        truncated: false,
        explanation: 'Names of the dogs.',
        verdict: 'match',
      },
      3,
    ),
    ev(
      {
        type: 'usage',
        usage: null,
        total: { inputTokens: 120, outputTokens: 30, estimated: true },
        ms: 5,
        phase: 'explain',
        why: 'a check: the result is empty',
      },
      3,
    ),
  ],
};

describe('run export', () => {
  it('JSON holds question, hints, plan, steps, SQL, rows, model names and usage, and no key', () => {
    const text = runToJson(run);
    expect(text).not.toContain('sk-must-not-leak');
    const data = JSON.parse(text);
    expect(data).toMatchObject({
      format: 'dowser-run/1',
      question: 'Which pets are dogs?',
      hints: 'species is lower case',
      database: 'tiny.sqlite',
      provider: 'openai',
      model: 'gpt-x',
    });
    expect(data.events.map((e: { type: string }) => e.type)).toEqual([
      'plan',
      'thought',
      'action',
      'observation',
      'final',
      'usage',
    ]);
    expect(data.events[4].rows).toEqual([
      ['Rex | the dog', '0x01ff'],
      ['Big', '9007199254740993'],
    ]);
  });

  it('reads its own JSON back, and refuses other files with a reason', () => {
    const back = runFromJson(runToJson(run));
    expect(back).toMatchObject({ question: run.question, dbName: 'tiny.sqlite', status: 'done' });
    expect(back.events.find((e) => e.type === 'final')).toMatchObject({ sql: expect.stringContaining('FROM pets') });
    expect(() => runFromJson('{"format":"other"}')).toThrow(/not a Dowser run file/);
    expect(() => runFromJson('nope')).toThrow(/not JSON/);
  });

  it("a follow-up's file holds its conversation: JSON reads it back, Markdown shows it before the question", () => {
    const earlier = [{ ...run, question: 'All orders per status?', events: run.events }];
    const followUp = { ...run, question: 'and only the paid ones?', earlier };
    const back = runFromJson(runToJson(followUp));
    expect(back.earlier).toHaveLength(1);
    expect(back.earlier![0]).toMatchObject({ question: 'All orders per status?', status: run.status });
    expect(back.earlier![0].events.length).toBeGreaterThan(0);
    const md = runToMarkdown(followUp);
    expect(md).toContain('## Earlier in this conversation');
    expect(md.indexOf('### 1. All orders per status?')).toBeLessThan(
      md.indexOf('## This question: and only the paid ones?'),
    );
    // A file without a conversation stays as it was.
    expect(JSON.parse(runToJson(run))).not.toHaveProperty('thread');
  });

  it('Markdown has the plan, each step, the SQL and a table of rows; database text cannot break its fences', () => {
    const md = runToMarkdown(run);
    expect(md).toMatch(/^# Which pets are dogs\?/);
    expect(md).toContain('1. Find dogs — pets(species)');
    expect(md).toContain('**Action:** search\\_value');
    expect(md).toContain('````\n"dog" in pets.species (3 rows)\n```nasty``` fence\n````');
    expect(md).toContain('```sql\nSELECT name FROM pets');
    expect(md).toContain('| Rex \\| the dog | 0x01ff |');
    expect(md).toContain('- Tokens: 120 in / 30 out (estimated)');
    expect(md).toContain('- Model requests: 1. a check\\: the result is empty');
    expect(md).not.toContain('sk-must-not-leak');
  });

  it('Markdown says in words the chart the page proposes for the answer, and none where nothing fits', () => {
    const perCountry: ExportableRun = {
      ...run,
      events: [
        ev({
          type: 'final',
          sql: 'SELECT country, count(*) AS customers FROM customers GROUP BY country',
          columns: ['country', 'customers'],
          rows: [
            ['France', 3],
            ['Ger*many*', 12],
            ['Kenya', 1],
          ],
          totalRows: 3,
          truncated: false,
          verdict: 'match',
        }),
      ],
    };
    const md = runToMarkdown(perCountry);
    expect(md).toContain(
      'Chart: Bar chart of customers by country\\: 3 points; highest Ger\\*many\\*, 12; lowest Kenya, 1\\.',
    );
    // The run above (names and blobs) suits no chart.
    expect(runToMarkdown(run)).not.toContain('Chart');
  });

  it('Markdown of an answer of 200,000 rows (a run file may hold any number): every row, no stack overflow', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => [`c${i}`, i]);
    const big: ExportableRun = {
      ...run,
      events: [
        ev({
          type: 'final',
          sql: 'SELECT code, n FROM t',
          columns: ['code', 'n'],
          rows,
          totalRows: rows.length,
          truncated: false,
          verdict: 'match',
        }),
      ],
    };
    const md = runToMarkdown(big);
    expect(md).toContain('| c199999 | 199999 |');
    expect(
      runToMarkdown({ ...run, events: [], earlier: [{ ...run, question: 'Before?', events: big.events }] }),
    ).toContain('| c199999 | 199999 |');
  });

  it('.sql carries the question and numbered sub-questions as comments', () => {
    const text = sqlFileText('SELECT 1', {
      database: 'tiny.sqlite',
      question: 'Dogs?\nDROP TABLE pets',
      subQuestions: ['Find dogs', 'Count them'],
      exportedAt: '2026-11-22T00:00:00Z',
    });
    expect(text).toContain('-- Question: Dogs? DROP TABLE pets');
    expect(text).toContain('-- Sub-question 1: Find dogs\n-- Sub-question 2: Count them');
  });
});
