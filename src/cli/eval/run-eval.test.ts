import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../e2e/mock-llm/server';
import type { AgentEvent } from '../../core/agent/events';
import type { QuestionRecord } from '../../core/eval/eval-record';
import type { EvalDetails, EvalSummary } from '../../core/eval/eval-summary';
import { knowingModel, SPIDER_QUESTIONS, writeSpiderFixture } from '../../test-support/eval-fixtures';
import { run } from '../main';
import { parseEvalArgs } from './eval-options';
import { runEval } from './run-eval';
import { captureIo } from '../test-support/run-cli';

let dir: string;
let data: string;
let outCount = 0;
const freshOut = () => join(dir, `out-${++outCount}`);

function io() {
  const { io: cli, out: captured } = captureIo();
  return { cli, captured };
}

async function dowser(...argv: string[]) {
  const { cli, captured } = io();
  const code = await run(['eval', ...argv], cli);
  return { code, ...captured };
}

const results = (out: string) =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as QuestionRecord);
const json = <T>(out: string, name: string) => JSON.parse(readFileSync(join(out, name), 'utf8')) as T;
const summaryOf = (out: string) => json<EvalSummary>(out, 'summary.json');
const detailsOf = (out: string) => json<EvalDetails>(out, 'details.json');
const spider = (out: string, ...more: string[]) => ['--dataset', 'spider', '--data', data, '--out', out, ...more];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-eval-'));
  data = join(dir, 'spider');
  await writeSpiderFixture(data);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dowser eval, gold provider', () => {
  it('scores every reference through the agent, writes the summary, the table, results and transcripts', async () => {
    const out = freshOut();
    const r = await dowser(...spider(out, '--provider', 'gold', '--mode', 'agent', '--concurrency', '2'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('EX 100.00% over 5 scored questions (skipped 1, failed 0)');
    const summary = summaryOf(out);
    expect(Object.keys(summary).sort()).toEqual(
      [
        'byDifficulty',
        'ex',
        'failed',
        'n',
        'requestsPerQuestion',
        'secondsPerQuestion',
        'skipped',
        'tokensPerQuestion',
      ].sort(),
    );
    expect(summary).toMatchObject({ ex: 100, n: 5, skipped: 1, failed: 0 });
    // Plan, execute, done with the explanation of the rows it saw: no request after the answer.
    expect(summary.requestsPerQuestion).toMatchObject({ mean: 3, p50: 3, p90: 3, p95: 3, max: 3 });
    expect(summary.tokensPerQuestion.input.mean).toBeGreaterThan(1000);
    expect(Object.keys(summary.byDifficulty)).toEqual(expect.arrayContaining(['easy', 'medium']));
    const lines = results(out);
    expect(lines.map((l) => l.id).sort()).toEqual(['0', '1', '2', '3', '4', '5']);
    const scored = lines.filter((l) => l.status !== 'skipped');
    for (const l of scored) {
      expect(l).toMatchObject({ status: 'correct', ex: 1, verdict: 'match' });
      expect(l.finalSql).toBe(SPIDER_QUESTIONS[l.index].query);
      const t = json<{ events: AgentEvent[] }>(out, l.transcript!);
      expect(t.events.at(-1)).toMatchObject({ type: 'final', sql: l.finalSql });
    }
    expect(lines.find((l) => l.id === '4')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/^no database file/),
    });
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toContain('| all | 5 | 100.00 |');
    expect(md).toMatch(/\| model requests \| 3 \| 3 \| 3 \| 3 \| 3 \|/);
    expect(detailsOf(out)).toMatchObject({ skippedReasons: { 'no database file': 1 }, pending: 0 });
  });

  it('scores 100% in Direct mode too', async () => {
    const out = freshOut();
    const r = await dowser(...spider(out, '--provider', 'gold', '--mode', 'direct'));
    expect(r.code).toBe(0);
    expect(summaryOf(out)).toMatchObject({ ex: 100, n: 5, requestsPerQuestion: { mean: 2 } });
  });

  it('answers in Auto mode by default: the grounded request and the check, fewer tokens than the agent', async () => {
    const auto = freshOut();
    expect((await dowser(...spider(auto, '--provider', 'gold'))).code).toBe(0);
    const agent = freshOut();
    expect((await dowser(...spider(agent, '--provider', 'gold', '--mode', 'agent'))).code).toBe(0);
    const a = summaryOf(auto);
    expect(a).toMatchObject({ ex: 100, n: 5 });
    expect(a.requestsPerQuestion.mean).toBeLessThanOrEqual(2.5);
    expect(a.tokensPerQuestion.input.mean).toBeLessThan(summaryOf(agent).tokensPerQuestion.input.mean / 2);
    const t = json<{ mode: string; events: AgentEvent[] }>(auto, results(auto).find((l) => l.transcript)!.transcript!);
    expect(t.mode).toBe('auto');
    expect(t.events[0]).toMatchObject({ type: 'route', path: 'grounded' });
  });

  it('continues a run in the same folder and refuses other settings there', async () => {
    const out = freshOut();
    expect((await dowser(...spider(out, '--provider', 'gold', '--limit', '2'))).code).toBe(0);
    expect(results(out)).toHaveLength(2);
    const again = await dowser(...spider(out, '--provider', 'gold'));
    expect(again.stderr).toContain('6 questions selected, 2 already done');
    expect(results(out).map((l) => l.id)).toEqual(['0', '1', '2', '3', '5', '4']); // by database
    expect(summaryOf(out)).toMatchObject({ n: 5, skipped: 1 });
    const other = await dowser(...spider(out, '--provider', 'gold', '--mode', 'direct'));
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('holds a run with other settings (mode: auto)');
  });

  it('stops on request with a consistent partial report, and the next run finishes', async () => {
    const out = freshOut();
    const controller = new AbortController();
    const { cli, captured } = io();
    const code = await runEval(parseEvalArgs(spider(out, '--provider', 'gold'))!, cli, {
      signal: controller.signal,
      onRecord: () => controller.abort(),
    });
    expect(code).toBe(130);
    expect(captured.stderr).toContain('Interrupted: 5 questions not yet run');
    expect(results(out)).toHaveLength(1);
    expect(summaryOf(out)).toMatchObject({ n: 1, ex: 100 });
    expect(detailsOf(out)).toMatchObject({ pending: 5 });
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('not yet run 5');
    expect((await dowser(...spider(out, '--provider', 'gold'))).code).toBe(0);
    expect(summaryOf(out)).toMatchObject({ n: 5, ex: 100 });
  });
});

describe('dowser eval, scripted provider with a turn file per question', () => {
  it('reads <id>.json and spider-dev-<id>.json, skips questions without one, classifies misses', async () => {
    const turns = join(dir, 'turns');
    mkdirSync(turns, { recursive: true });
    const answer = (sql: string) => [
      { toolCalls: [{ name: 'submit_plan', arguments: { sub_questions: [{ text: 'q', tables: [] }] } }] },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql } }] },
      { toolCalls: [{ name: 'done', arguments: { sql } }] },
      { text: 'Explanation: e.\nVerdict: unsure' },
    ];
    writeFileSync(join(turns, '0.json'), JSON.stringify(answer('SELECT count(id) FROM customers')));
    // The recorded conversations' format: an object with its turns.
    writeFileSync(
      join(turns, 'spider-dev-2.json'),
      JSON.stringify({ db_id: 'pairs', turns: answer("SELECT city FROM singer WHERE country = 'USA'") }),
    );
    writeFileSync(join(turns, '3.json'), JSON.stringify(answer('SELECT name FROM singer')));
    writeFileSync(join(turns, '5.json'), JSON.stringify(answer('SELECT count(*) FROM concert WHERE year = 2015')));
    const out = freshOut();
    const r = await dowser(...spider(out, '--provider', 'scripted', '--script-dir', turns, '--mode', 'agent'));
    expect(r.code).toBe(0);
    expect(summaryOf(out)).toMatchObject({ n: 4, ex: 25, skipped: 2 });
    const byId = new Map(results(out).map((l) => [l.id, l]));
    expect(byId.get('0')).toMatchObject({ status: 'correct', verdict: 'unsure' });
    expect(byId.get('2')).toMatchObject({ status: 'wrong', miss: 'selected_column' });
    expect(byId.get('3')).toMatchObject({ status: 'wrong', miss: 'reasoning' });
    expect(byId.get('5')).toMatchObject({ status: 'wrong', miss: 'filtered_column' });
    expect(byId.get('1')).toMatchObject({ status: 'skipped', reason: 'no turn file' });
    expect(detailsOf(out).misses).toMatchObject({ selected_column: 1, reasoning: 1, filtered_column: 1 });
  });

  it('stops a scoring query at the time limit and goes on with the next question', async () => {
    const turns = join(dir, 'slow-turns');
    mkdirSync(turns, { recursive: true });
    const answer = (sql: string) => [
      { toolCalls: [{ name: 'submit_plan', arguments: { sub_questions: [{ text: 'q', tables: [] }] } }] },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql } }] },
      { toolCalls: [{ name: 'done', arguments: { sql } }] },
      { text: 'Explanation: e.\nVerdict: match' },
    ];
    // Endless rows: the agent reads its first 20 at once; scoring reads on until the limit.
    const endless = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c';
    writeFileSync(join(turns, '2.json'), JSON.stringify(answer(endless)));
    writeFileSync(join(turns, '5.json'), JSON.stringify(answer('SELECT count(*) FROM concert WHERE year = 2014')));
    const out = freshOut();
    const r = await dowser(
      ...spider(out, '--provider', 'scripted', '--script-dir', turns, '--ids', '2,5', '--mode', 'agent'),
      ...['--time-limit', '1', '--max-result-rows', '1000000000'],
    );
    expect(r.code).toBe(0);
    const [slow, next] = results(out);
    expect(slow).toMatchObject({
      id: '2',
      status: 'wrong',
      miss: 'sql_error',
      reason: expect.stringContaining('timeout'),
    });
    expect(next, JSON.stringify(next)).toMatchObject({ id: '5', status: 'correct' });
  });
});

describe('dowser eval, OpenAI-compatible provider (mock server)', () => {
  let mock: MockLlm | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });
  const sqlFor = (q: string) => SPIDER_QUESTIONS.find((x) => x.question === q)?.query;
  const openai = (out: string, ...more: string[]) =>
    spider(out, '--provider', 'openai', '--base-url', mock!.url, '--model', 'mock-model', ...more);

  it('counts tokens with cached ones apart, requests, tool calls', async () => {
    const answer = knowingModel(sqlFor);
    mock = await startMockLlm({
      script: (req) => ({
        ...answer(req),
        usage: { prompt_tokens: 1000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 600 } },
      }),
    });
    const out = freshOut();
    const r = await dowser(...openai(out, '--ids', '0,2', '--concurrency', '2', '--mode', 'agent'));
    expect(r.code).toBe(0);
    const summary = summaryOf(out);
    expect(summary).toMatchObject({ ex: 100, n: 2 });
    expect(summary.tokensPerQuestion).toMatchObject({
      input: { mean: 4000 },
      cached: { mean: 2400 },
      output: { mean: 200 },
      total: { mean: 4200 },
    });
    expect(results(out)[0].cost).toMatchObject({
      requests: 4,
      toolCalls: 3,
      firstRequestTokens: 1000,
      estimated: false,
    });
  });

  it('waits out a 429 with Retry-After for the whole run, then goes on', async () => {
    const answer = knowingModel(sqlFor);
    let refused = 0;
    mock = await startMockLlm({
      script: (req) =>
        refused++ < 3
          ? { error: { status: 429, headers: { 'Retry-After': '0.2' }, body: { error: { message: 'slow down' } } } }
          : answer(req),
    });
    const out = freshOut();
    const r = await dowser(...openai(out, '--ids', '0', '--mode', 'agent'));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/rate limited: every request waits 0 s/);
    expect(results(out)[0]).toMatchObject({ status: 'correct' });
    expect(mock.requests.length).toBe(3 + 4);
  });

  it("Auto's first request carries the database's stored values (the grounding reaches the eval)", async () => {
    mock = await startMockLlm({ script: knowingModel(sqlFor) });
    const out = freshOut();
    const r = await dowser(...openai(out, '--ids', '2'));
    expect(r.code).toBe(0);
    expect(summaryOf(out)).toMatchObject({ ex: 100, n: 1, requestsPerQuestion: { mean: 2 } });
    const first = JSON.stringify(mock.requests[0].messages);
    expect(first).toContain('country text: \\"USA\\", \\"China\\", \\"France\\", \\"france\\"');
    expect(first).toContain('net_worth real: 1.5 to 10');
  });

  it('marks questions failed when the provider is down, and --retry-failed runs them again', async () => {
    mock = await startMockLlm({ script: () => ({ error: { status: 503, body: { error: { message: 'down' } } } }) });
    const out = freshOut();
    const r = await dowser(...openai(out, '--ids', '0'));
    expect(r.code).toBe(0);
    expect(summaryOf(out)).toMatchObject({ n: 0, failed: 1, ex: null });
    expect(results(out)[0]).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^llm_server/) });
    await mock.close();
    mock = await startMockLlm({ script: knowingModel(sqlFor) });
    const kept = await dowser(...openai(out, '--ids', '0'));
    expect(kept.stderr).toContain('1 already done');
    expect(mock.requests).toHaveLength(0);
    // The folder remembers the settings, the base URL is not one of them.
    const retried = await dowser(...openai(out, '--ids', '0', '--retry-failed'));
    expect(retried.code).toBe(0);
    expect(summaryOf(out)).toMatchObject({ n: 1, failed: 0, ex: 100 });
  });

  it('marks a question whose model stalls failed with the reason, and goes on (--answer-time)', async () => {
    const answer = knowingModel(sqlFor);
    const stalled = SPIDER_QUESTIONS[0].question;
    mock = await startMockLlm({
      script: (req) => (JSON.stringify(req.messages).includes(stalled) ? { stall: 'drip', everyMs: 50 } : answer(req)),
    });
    const out = freshOut();
    const r = await dowser(...openai(out, '--ids', '0,2', '--mode', 'agent', '--answer-time', '2'));
    expect(r.code).toBe(0);
    const byId = Object.fromEntries(results(out).map((l) => [l.id, l]));
    expect(byId['0']).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/^answer_limit: No answer within 2 s .*--answer-time/),
    });
    expect(byId['2']).toMatchObject({ status: 'correct' });
    expect(summaryOf(out)).toMatchObject({ n: 1, failed: 1, ex: 100 });
  });

  it('stops the whole run when the key is refused', async () => {
    mock = await startMockLlm({ script: () => ({ error: { status: 401, body: { error: { message: 'bad key' } } } }) });
    const out = freshOut();
    const r = await dowser(...openai(out));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: stopped:');
    expect(results(out)).toHaveLength(1);
    expect(detailsOf(out).pending).toBe(5);
  });
});

describe('dowser eval, usage errors', () => {
  it.each([
    [['--data', 'x', '--out', 'o', '--provider', 'gold'], '--dataset spider|bird|sparc|cosql is required'],
    [['--dataset', 'spider', '--out', 'o', '--provider', 'gold'], '--data <dir> is required'],
    [['--dataset', 'spider', '--data', 'x', '--provider', 'gold'], '--out <dir> is required'],
    [['--dataset', 'spider', '--data', 'x', '--out', 'o', '--provider', 'scripted'], 'needs --script-dir'],
    [['--dataset', 'spider', '--data', 'x', '--out', 'o', '--provider', 'openai'], '--model <name> is required'],
    [
      ['--dataset', 'spider', '--data', 'x', '--out', 'o', '--provider', 'gold', '--mode', 'fast'],
      '--mode is auto or agent or direct',
    ],
    [
      ['--dataset', 'spider', '--data', 'x', '--out', 'o', '--provider', 'gold', '--hints', 'yes'],
      '--hints is on or off',
    ],
    [
      ['--dataset', 'spider', '--data', 'x', '--out', 'o', '--provider', 'gold', '--concurrency', '0'],
      '--concurrency needs',
    ],
  ])('%j', async (argv, message) => {
    const r = await dowser(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('names unknown --ids', async () => {
    const r = await dowser(...spider(freshOut(), '--provider', 'gold', '--ids', '1,99'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--ids: no question with id 99');
  });

  it('prints its help', async () => {
    const r = await dowser('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: dowser eval --dataset spider\|bird/);
    expect(existsSync(join(dir, 'o'))).toBe(false);
  });
});
