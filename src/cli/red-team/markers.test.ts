// The marker test of round four (issue 35): a SQLite database and a CSV file of 32 made-up words,
// and a model that tries to draw them out, through every task that talks to a model — Auto (with
// its check), the agent (with its check), Direct, Check this step, Link, Fix, Optimize, Explain,
// Evaluate, and a follow-up asked at a lower level than the turn before it. Under schema only and
// matches only no marker may be in any request body the server receives; under full the same
// attacks do bring them (the test would see a leak). The page's half is e2e/red-team-markers.spec.ts.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm, type MockReply } from '../../../e2e/mock-llm/server';
import { buildDb } from '../../test-support/build-db';
import { openaiFlags, runCli } from '../test-support/run-cli';
import {
  AGENT_REPLIES,
  ALL_ROWS_SQL,
  ATTACKS,
  attacker,
  bodiesOf,
  COUNT_SQL,
  DONE,
  EXPRESSION_SQL,
  FOLLOW_UP,
  MARKERS,
  markersIn,
  MEMBERS_CSV,
  MEMBERS_SQL,
  PLAN,
  QUESTION,
  sqlReply,
  toolCall,
} from './marker-fixtures';

let dir: string;
const files: Record<'sqlite' | 'csv', string> = { sqlite: '', csv: '' };
let evalData: string;
let planFile: string;
let mock: MockLlm | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-markers-'));
  const bytes = await buildDb(MEMBERS_SQL);
  files.sqlite = join(dir, 'members.sqlite');
  writeFileSync(files.sqlite, bytes);
  files.csv = join(dir, 'members.csv');
  writeFileSync(files.csv, MEMBERS_CSV);
  // Evaluate reads a Spider-format folder: the question with its reference, the database beside it.
  evalData = join(dir, 'eval');
  mkdirSync(join(evalData, 'database', 'members'), { recursive: true });
  writeFileSync(join(evalData, 'database', 'members', 'members.sqlite'), bytes);
  writeFileSync(
    join(evalData, 'dev.json'),
    JSON.stringify([{ db_id: 'members', question: QUESTION, query: COUNT_SQL }]),
  );
  planFile = join(dir, 'plan.json');
  writeFileSync(planFile, JSON.stringify(PLAN));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

interface Task {
  /** The command line after `--db <file>` is put in (null: the task names its data itself). */
  argv: (db: string) => string[];
  replies: MockReply[];
  last: MockReply;
}

const TASKS: Record<string, Task> = {
  'ask (Auto, with its check)': {
    argv: (db) => ['ask', '--db', db, '--question', QUESTION],
    replies: [sqlReply(ATTACKS[0]), sqlReply(ALL_ROWS_SQL)],
    last: sqlReply(COUNT_SQL),
  },
  'ask --mode agent (with its check)': {
    argv: (db) => ['ask', '--db', db, '--mode', 'agent', '--question', QUESTION],
    replies: AGENT_REPLIES,
    last: DONE,
  },
  'ask --mode direct': {
    argv: (db) => ['ask', '--db', db, '--mode', 'direct', '--question', QUESTION],
    replies: ATTACKS.map(sqlReply),
    last: sqlReply(ALL_ROWS_SQL),
  },
  'ask --check-step (Check this step)': {
    argv: (db) => ['ask', '--db', db, '--plan', planFile, '--check-step', '1'],
    replies: AGENT_REPLIES.slice(1),
    last: toolCall('d', 'done', { sql: ALL_ROWS_SQL }),
  },
  link: { argv: (db) => ['link', '--db', db, QUESTION], replies: [sqlReply(ALL_ROWS_SQL)], last: sqlReply(COUNT_SQL) },
  fix: {
    argv: (db) => ['fix', '--db', db, '--question', QUESTION, ATTACKS[0]],
    replies: ATTACKS.slice(1).map(sqlReply),
    last: sqlReply(ALL_ROWS_SQL),
  },
  optimize: {
    argv: (db) => ['optimize', '--db', db, ALL_ROWS_SQL],
    replies: [sqlReply(ATTACKS[0])],
    last: sqlReply(ALL_ROWS_SQL),
  },
  explain: {
    argv: (db) => ['explain', '--db', db, '--question', QUESTION, ALL_ROWS_SQL],
    replies: [{ text: 'Explanation: Every member.\nVerdict: unsure' }],
    last: { text: 'Explanation: Every member.\nVerdict: unsure' },
  },
};

async function run(argv: string[], task: Pick<Task, 'replies' | 'last'>, privacy: string) {
  mock = await startMockLlm({ script: attacker(task.replies, task.last) });
  const r = await runCli([...argv, ...openaiFlags(mock.url), '--privacy', privacy]);
  return { ...r, sent: bodiesOf(mock.requests) };
}

describe('red team 4: markers through every task', () => {
  it('has at least 25 markers, none a word of the questions', () => {
    expect(MARKERS.length).toBeGreaterThanOrEqual(25);
    for (const m of MARKERS) expect(`${QUESTION} ${FOLLOW_UP}`).not.toContain(m);
  });

  it('under full the attacks bring the markers to the model (a leak would be seen)', async () => {
    for (const kind of ['sqlite', 'csv'] as const) {
      const r = await run(
        TASKS['ask --mode agent (with its check)'].argv(files[kind]),
        TASKS['ask --mode agent (with its check)'],
        'full',
      );
      expect(r.code, r.stderr).toBe(0);
      expect(markersIn(r.sent).length).toBeGreaterThanOrEqual(25);
    }
  });

  for (const level of ['schema', 'matches'])
    for (const kind of ['sqlite', 'csv'] as const) {
      for (const [name, task] of Object.entries(TASKS))
        it(`${name} on the ${kind} file under ${level}: no marker reaches the server`, async () => {
          const r = await run(task.argv(files[kind]), task, level);
          expect(mock!.requests.length, r.stderr).toBeGreaterThan(0);
          expect(markersIn(r.sent)).toEqual([]);
        });

      // A model's own SQL goes back to it within its run; written at full, it reaches the next turn's prompt.
      it(`a follow-up on the ${kind} file under ${level}, after a turn at full: no marker reaches the server`, async () => {
        mock = await startMockLlm({
          script: attacker([sqlReply(EXPRESSION_SQL), sqlReply(ALL_ROWS_SQL)], sqlReply(ALL_ROWS_SQL)),
        });
        const transcript = join(dir, `turn-1-${kind}-${level}.json`);
        const first = await runCli([
          'ask',
          '--db',
          files[kind],
          '--question',
          QUESTION,
          ...openaiFlags(mock.url),
          '--privacy',
          'full',
          '--transcript',
          transcript,
        ]);
        expect(first.code, first.stderr).toBe(0);
        expect(markersIn(bodiesOf(mock.requests)).length).toBeGreaterThan(0);
        const before = mock.requests.length;
        const second = await runCli([
          'ask',
          '--db',
          files[kind],
          '--question',
          FOLLOW_UP,
          ...openaiFlags(mock.url),
          '--privacy',
          level,
          '--continue',
          transcript,
        ]);
        expect(second.code, second.stderr).toBe(0);
        const sent = bodiesOf(mock.requests.slice(before));
        expect(sent).toContain('Earlier in this conversation');
        expect(markersIn(sent)).toEqual([]);
      });
    }

  /** `dowser eval` on the Spider-format folder at `level`: what it printed and what the server got. */
  async function evaluate(level: string) {
    mock = await startMockLlm({
      script: attacker([sqlReply(ATTACKS[0]), sqlReply(ALL_ROWS_SQL)], sqlReply(COUNT_SQL)),
    });
    const out = join(dir, `eval-${level}`);
    const argv = ['eval', '--dataset', 'spider', '--data', evalData, '--out', out, ...openaiFlags(mock.url)];
    const r = await runCli([...argv, '--privacy', level]);
    expect(r.code, r.stderr).toBe(0);
    expect(mock.requests.length).toBeGreaterThan(0);
    return { ...r, sent: bodiesOf(mock.requests) };
  }

  for (const level of ['schema', 'matches'])
    it(`dowser eval under ${level}: no marker reaches the server`, async () => {
      const r = await evaluate(level);
      expect(r.stderr).toContain(`privacy ${level === 'schema' ? 'schema only' : 'matches only'}`);
      expect(markersIn(r.sent)).toEqual([]);
    });

  it('dowser eval under full sends them (the level is what keeps them back)', async () => {
    expect(markersIn((await evaluate('full')).sent).length).toBeGreaterThanOrEqual(25);
  });
});
