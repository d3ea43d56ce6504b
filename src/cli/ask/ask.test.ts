import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm, type MockReply } from '../../../e2e/mock-llm/server';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { openaiFlags, runCli } from '../test-support/run-cli';

const KEY_VAR = 'DOWSER_ASK_TEST_KEY';
const KEY = 'sk-test-do-not-print-4f7a9c';
const QUESTION = 'Total of paid orders from Paris?';
const PLAN = {
  sub_questions: [
    { text: 'Which customers are in Paris?', tables: [{ table: 'customers', columns: ['id', 'city'] }] },
    {
      text: 'What is the total of their paid orders?',
      tables: [{ table: 'orders', columns: ['customer_id', 'total', 'status'] }],
    },
  ],
};
const SQL =
  "SELECT sum(o.total) AS paid FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.city = 'Paris' AND o.status = 'paid'";
const EXPLANATION = 'Explanation: The total of paid orders by customers who live in Paris.\nVerdict: match';
const TURNS = [
  { text: 'I split the question.', toolCalls: [{ name: 'submit_plan', arguments: PLAN }] },
  { text: 'How is Paris written?', toolCalls: [{ name: 'search_value', arguments: { query: 'paris' } }] },
  { toolCalls: [{ name: 'execute_sql', arguments: { sql: SQL } }] },
  { toolCalls: [{ name: 'done', arguments: { sql: SQL } }] },
  { text: EXPLANATION },
];

let dir: string;
let db: string;
let script: string;

const dowser = (...argv: string[]) => runCli(argv);

const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string } & Record<string, unknown>);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-ask-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
  script = join(dir, 'turns.json');
  writeFileSync(script, JSON.stringify(TURNS));
  process.env[KEY_VAR] = KEY;
});

afterAll(() => {
  delete process.env[KEY_VAR];
  rmSync(dir, { recursive: true, force: true });
});

describe('dowser ask, scripted provider', () => {
  it('runs plan -> search_value -> execute_sql -> done and prints JSON events', async () => {
    const transcript = join(dir, 'scripted.json');
    const r = await dowser(
      'ask',
      '--db',
      db,
      '--question',
      QUESTION,
      '--provider',
      'scripted',
      '--script',
      script,
      '--json',
      '--transcript',
      transcript,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    const types = events.map((e) => e.type);
    for (const t of ['plan', 'thought', 'thought_delta', 'action', 'observation', 'usage', 'final'])
      expect(types).toContain(t);
    expect(types[types.length - 1]).toBe('final');
    expect(events.filter((e) => e.type === 'action').map((e) => e.tool)).toEqual([
      'submit_plan',
      'search_value',
      'execute_sql',
      'done',
    ]);
    expect(events[events.length - 1]).toMatchObject({
      sql: SQL,
      columns: ['paid'],
      rows: [[30.5]],
      verdict: 'match',
      explanation: expect.stringContaining('Paris'),
    });
    const saved = JSON.parse(readFileSync(transcript, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({
      question: QUESTION,
      hints: null,
      provider: 'scripted',
      exitCode: 0,
      apiKeyEnv: null,
    });
    expect((saved.events as unknown[]).length).toBe(events.length);
    expect(readFileSync(transcript, 'utf8')).not.toContain(KEY);
  });

  it('speaks the text protocol with --tools text and prints readable lines', async () => {
    const textScript = join(dir, 'text-turns.json');
    writeFileSync(
      textScript,
      JSON.stringify([
        { text: `Thought: plan first.\nAction: submit_plan ${JSON.stringify(PLAN)}` },
        { text: `Thought: run it.\nAction: execute_sql ${JSON.stringify({ sql: SQL })}` },
        { text: `Action: done ${JSON.stringify({ sql: SQL })}` },
        { text: EXPLANATION },
      ]),
    );
    const r = await dowser(
      'ask',
      '--db',
      db,
      '--question',
      QUESTION,
      '--hints',
      'paid means status = paid',
      '--provider',
      'scripted',
      '--script',
      textScript,
      '--tools',
      'text',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('plan:\n  1. Which customers are in Paris? — customers(id, city)\n  2.');
    expect(r.stdout).toContain('thought: plan first.');
    expect(r.stdout).toContain('action: execute_sql {"sql":');
    expect(r.stdout).toMatch(/final SQL:\n {4}SELECT sum/);
    expect(r.stdout).toMatch(/paid\n-+\n30\.5\n1 row/);
    expect(r.stdout).toContain('verdict: match');
    expect(r.stdout).toMatch(/usage: \d+ input \+ \d+ output tokens \(estimated\) in 4 model calls, [\d.]+ s/);
  });

  it('exits 1 when the script ends before a final answer', async () => {
    const short = join(dir, 'short.json');
    writeFileSync(short, JSON.stringify(TURNS.slice(0, 2)));
    const r = await dowser(
      'ask',
      '--db',
      db,
      '--question',
      QUESTION,
      '--provider',
      'scripted',
      '--script',
      short,
      '--json',
    );
    expect(r.code).toBe(1);
    expect(jsonLines(r.stdout).pop()).toMatchObject({ type: 'error', code: 'llm_bad_response' });
  });
});

describe('dowser ask, OpenAI-compatible provider (mock server)', () => {
  let mock: MockLlm | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });
  const asMock = (t: (typeof TURNS)[number]): MockReply => ({
    text: t.text,
    toolCalls: t.toolCalls?.map((c, i) => ({ id: `call_${i}`, ...c })),
  });

  it('calls the server with native tools, never shows the key, exits 0', async () => {
    mock = await startMockLlm({ script: TURNS.map(asMock) });
    const transcript = join(dir, 'openai.json');
    const r = await dowser(
      'ask',
      '--db',
      db,
      '--question',
      QUESTION,
      ...openaiFlags(mock.url, 'mock-model'),
      '--mode',
      'agent',
      '--api-key-env',
      KEY_VAR,
      '--transcript',
      transcript,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('verdict: match');
    expect(mock.requests).toHaveLength(5);
    const tools = mock.requests[0].tools as Array<{ function: { name: string } }>;
    expect(tools.map((t) => t.function.name)).toEqual([
      'submit_plan',
      'search_column',
      'search_value',
      'find_shortest_path',
      'execute_sql',
      'ask_user',
      'done',
    ]);
    expect(mock.requests[0].headers.authorization).toBe('[present]');
    expect(mock.requests[4].tools).toBeUndefined(); // the explanation is a plain call
    const saved = readFileSync(transcript, 'utf8');
    expect(JSON.parse(saved)).toMatchObject({
      provider: expect.stringContaining('openai'),
      model: 'mock-model',
      apiKeyEnv: KEY_VAR,
      baseUrl: mock.url,
    });
    for (const text of [r.stdout, r.stderr, saved]) expect(text).not.toContain(KEY);
  });

  it('reports a refused key as an error event naming the variable, exit 1', async () => {
    mock = await startMockLlm({
      script: [{ error: { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } } }],
    });
    const transcript = join(dir, 'refused.json');
    const r = await dowser(
      'ask',
      '--db',
      db,
      '--question',
      QUESTION,
      ...openaiFlags(mock.url, 'mock-model'),
      '--mode',
      'agent',
      '--api-key-env',
      KEY_VAR,
      '--json',
      '--transcript',
      transcript,
    );
    expect(r.code).toBe(1);
    const last = jsonLines(r.stdout).pop();
    expect(last).toMatchObject({
      type: 'error',
      code: 'llm_auth',
      message: expect.stringContaining(`API key was refused`),
    });
    expect(last?.message).toContain(KEY_VAR);
    for (const text of [r.stdout, r.stderr, readFileSync(transcript, 'utf8')]) expect(text).not.toContain(KEY);
  });
});

describe('dowser ask, keys in what servers and models send back (issue 11 item 9, issue 8)', () => {
  const VAR = 'DOWSER_ASK_REDACT_KEY';
  const SECRET = 'sk-proj-Q7vX2mPz9LkT4wRb8NcY3hJd6FsA1gUe';
  const BODY = SECRET.slice('sk-proj-'.length);
  let mock: MockLlm | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
    delete process.env[VAR];
  });

  async function ask(key: string, script: MockReply[]) {
    process.env[VAR] = key;
    mock = await startMockLlm({ script });
    const transcript = join(dir, `redact-${Math.random().toString(36).slice(2)}.json`);
    const r = await dowser(
      'ask',
      '--db',
      db,
      '--question',
      QUESTION,
      ...openaiFlags(mock.url, 'mock-model'),
      '--mode',
      'agent',
      '--api-key-env',
      VAR,
      '--json',
      '--transcript',
      transcript,
    );
    return { ...r, transcript: readFileSync(transcript, 'utf8') };
  }

  /** Pieces of the key of 6 or more characters found in `text`. */
  const fragments = (text: string) => {
    const out: string[] = [];
    for (let i = 0; i + 6 <= SECRET.length; i++)
      if (text.includes(SECRET.slice(i, i + 6))) out.push(SECRET.slice(i, i + 6));
    return out;
  };

  const ECHOES = [
    SECRET,
    BODY, // without its sk- prefix
    SECRET.slice(-12), // the last 12 characters
    SECRET.slice(0, 24), // cut short by a length limit
    `${BODY.slice(0, 10)}…${BODY.slice(-14)}`,
    JSON.stringify(SECRET),
    encodeURIComponent(`k=${SECRET}`),
  ];

  it.each(ECHOES.map((e, i) => [i, e]))(
    'an error body echoing form %i of the key is redacted everywhere',
    async (_i, echo) => {
      const r = await ask(SECRET, [{ error: { status: 400, body: { error: { message: `Invalid key: ${echo}` } } } }]);
      expect(r.code).toBe(1);
      // A keyed server's message the redaction would cut is not quoted at all (decision 070).
      expect(jsonLines(r.stdout).pop()).toMatchObject({
        type: 'error',
        message: expect.stringContaining('message is not shown'),
      });
      for (const text of [r.stdout, r.stderr, r.transcript]) expect(fragments(text)).toEqual([]);
    },
  );

  it.each(ECHOES.map((e, i) => [i, e]))(
    'a model reply holding form %i of the key, streamed in pieces, is redacted',
    async (_i, echo) => {
      const reply = `Let me note the key ${echo} first.`;
      const r = await ask(SECRET, [
        { text: reply, chunkSize: 3, toolCalls: [{ name: 'submit_plan', arguments: PLAN }] },
        { text: reply, chunkSize: 5, toolCalls: [{ name: 'execute_sql', arguments: { sql: SQL } }] },
        { toolCalls: [{ name: 'done', arguments: { sql: SQL } }] },
        { text: `Explanation: ${reply}\nVerdict: match` },
      ]);
      expect(r.code).toBe(0);
      const events = jsonLines(r.stdout);
      const thought = events.find((e) => e.type === 'thought')?.text as string;
      expect(thought).toMatch(/^Let me note the key .*\[redacted\].* first\.$/);
      for (const text of [r.stdout, r.stderr, r.transcript]) expect(fragments(text)).toEqual([]);
    },
  );

  it.each(['x', 'ollama', 'lm-studio'])('a short key (%s) rewrites no ordinary word', async (key) => {
    const text = 'The explanation: avg(LifeExpectancy) per country; ollama and lm-studio serve x.';
    const r = await ask(key, [
      { text, toolCalls: [{ name: 'submit_plan', arguments: PLAN }] },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: SQL } }] },
      { toolCalls: [{ name: 'done', arguments: { sql: SQL } }] },
      { text: `Explanation: ${text}\nVerdict: match` },
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('[redacted]');
    expect(r.transcript).not.toContain('[redacted]');
    expect(jsonLines(r.stdout).find((e) => e.type === 'final')).toMatchObject({
      explanation: expect.stringContaining(text),
    });
  });
});

describe('dowser ask, usage errors', () => {
  const base = ['ask', '--db', 'x.sqlite', '--question', 'q'];
  it.each([
    [['ask', '--question', 'q', '--provider', 'scripted'], '--db <file> is required'],
    [['ask', '--db', 'x.sqlite', '--provider', 'scripted'], '--question'],
    [base, '--provider is required'],
    [[...base, '--provider', 'gemini'], 'unknown provider "gemini"'],
    [[...base, '--provider', 'openai'], '--model <name> is required'],
    [[...base, '--provider', 'scripted', '--tools', 'both'], '--tools is native or text'],
    [[...base, '--provider', 'scripted', '--max-turns', '0'], '--max-turns needs a whole number'],
    [
      [...base, '--provider', 'openai', '--model', 'm', '--api-key-env', 'DOWSER_ASK_UNSET_VAR'],
      'DOWSER_ASK_UNSET_VAR is not set',
    ],
    [[...base, '--provider', 'anthropic', '--model', 'm', '--api-key-env', KEY], 'NAME of an environment variable'],
    [[...base, '--provider', 'scripted', '--script', 'missing-turns.json'], 'cannot read --script'],
  ])('%j', async (argv, message) => {
    const r = await dowser(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain(KEY);
  });

  it('refuses a script of the wrong shape', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ toolCalls: [{ arguments: {} }] }]));
    const r = await dowser('ask', '--db', db, '--question', 'q', '--provider', 'scripted', '--script', bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('at 0.toolCalls.0.name');
  });

  it('prints its help', async () => {
    const r = await dowser('ask', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: dowser ask --db <file> --question/);
  });
});
