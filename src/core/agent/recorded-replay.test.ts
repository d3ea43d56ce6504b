// Recorded conversations replayed through the real agent loop: each file's model turns go to the
// scripted model, the tools run on the real Spider database (sql.js in process), and the run must
// end where the recording ended, on the same final SQL with every turn used. Two sources: the
// conversations written for this project (src/test-fixtures/conversations, see its README.md) and
// the real recordings of a capable model in ../shared/datasets/recorded (read by path when
// present). A change to the prompt, tools or loop that breaks how a capable model's run unfolds
// shows up here as a run that ends elsewhere. Skipped when ../shared/datasets/spider is absent.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { executorFor, type SqlExecutor } from '../executor';
import { createScriptedModel, type ScriptedTurn } from '../llm/scripted';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import { scoreAnswer } from '../eval/score-answer';
import type { Schema } from '../types';
import type { AgentEvent } from './events';
import { runAgent } from './loop';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const writtenDir = join(repoRoot, 'src/test-fixtures/conversations');
const datasets = resolve(repoRoot, '../shared/datasets');
const recordedDir = join(datasets, 'recorded');
const spiderRoot = join(datasets, 'spider');
const hasSpider = existsSync(join(spiderRoot, 'dev.json')) && existsSync(join(spiderRoot, 'database'));
if (!hasSpider) console.warn(`recorded conversation replay skipped: ${spiderRoot} (Spider dev) not found`);

interface Conversation {
  id: string;
  dataset: string;
  devIndex: number;
  db_id: string;
  question: string;
  finalSql: string;
  modelRequests: number;
  turns: ScriptedTurn[];
}

const conversationFiles = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /^spider-dev-\d+\.json$/.test(f))
        .sort((a, b) => Number(a.match(/\d+/)?.[0]) - Number(b.match(/\d+/)?.[0]))
        .map((f) => join(dir, f))
    : [];

const load = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Conversation;
const written = conversationFiles(writtenDir);
const recorded = conversationFiles(recordedDir);

/** The SQL of the last `done` call in the turns. */
const lastDoneSql = (c: Conversation) =>
  c.turns
    .flatMap((t) => t.toolCalls ?? [])
    .filter((call) => call.name === 'done')
    .map((call) => (call.arguments as { sql?: string }).sql)
    .pop();

describe('conversations written for this project (src/test-fixtures/conversations)', () => {
  it('are at least 20, on at least 10 databases', () => {
    const conversations = written.map(load);
    expect(conversations.length).toBeGreaterThanOrEqual(20);
    expect(new Set(conversations.map((c) => c.db_id)).size).toBeGreaterThanOrEqual(10);
  });

  it.each(written.map((f) => [f.slice(writtenDir.length + 1), f]))('%s is well formed', (name, path) => {
    const c = load(path);
    expect(name).toBe(`${c.id}.json`);
    expect(c).toMatchObject({ id: `spider-dev-${c.devIndex}`, dataset: 'spider' });
    expect(c.modelRequests).toBe(c.turns.length);
    expect(c.turns[0].toolCalls?.[0].name).toBe('submit_plan');
    expect(lastDoneSql(c)).toBe(c.finalSql);
    // The last turn answers the explanation request, in the form the explain step reads.
    const last = c.turns[c.turns.length - 1];
    expect(last.toolCalls ?? []).toEqual([]);
    expect(last.text).toMatch(/^Explanation: .+\nVerdict: match$/s);
  });

  it('do not reuse the questions of the real recordings', () => {
    const recordedIds = new Set(recorded.map((f) => load(f).id));
    expect(written.map((f) => load(f).id).filter((id) => recordedIds.has(id))).toEqual([]);
  });
});

interface Database {
  schema: Schema;
  toolbox: Toolbox;
  exec: SqlExecutor;
}

// One toolbox per database, shared by every conversation on it (building is the slow part).
const databases = new Map<string, Promise<Database>>();
function database(dbId: string): Promise<Database> {
  let db = databases.get(dbId);
  if (!db) {
    db = (async () => {
      const engine = await createNodeEngine();
      const path = join(spiderRoot, 'database', dbId, `${dbId}.sqlite`);
      await engine.open({ id: dbId, name: `${dbId}.sqlite`, bytes: readFileSync(path) });
      const schema = await engine.introspect(dbId);
      const exec = executorFor(engine, dbId);
      return { schema, exec, toolbox: await buildToolbox(exec, schema) };
    })();
    databases.set(dbId, db);
  }
  return db;
}

async function replay(c: Conversation) {
  const { schema, toolbox } = await database(c.db_id);
  // Whole sentences per delta: streaming in small pieces is tested with the scripted model itself.
  const model = createScriptedModel(c.turns, { pieceSize: 200 });
  const events: AgentEvent[] = [];
  for await (const e of runAgent({
    question: c.question,
    model,
    tools: toolbox,
    schema,
    links: toolbox.link(c.question),
    // As `dowser ask --non-interactive`: a clarifying question is answered with its first option.
    askUser: async (q) => q.options[0],
  }))
    events.push(e);
  return { events, remaining: model.remaining };
}

interface DevQuestion {
  db_id: string;
  question: string;
  query: string;
}
let dev: DevQuestion[] | undefined;
const devQuestions = () => (dev ??= JSON.parse(readFileSync(join(spiderRoot, 'dev.json'), 'utf8')) as DevQuestion[]);

/** Spider's official execution match (src/core/eval): 1 when the final SQL answers as the reference does. */
async function officialMatch(exec: SqlExecutor, goldSql: string, predSql: string): Promise<number | null> {
  const outcome = await scoreAnswer({
    dataset: 'spider',
    goldSql,
    predSql,
    query: (sql) => exec.query(sql, { maxRows: 100_000 }),
  });
  return outcome.kind === 'scored' ? outcome.ex : null;
}

/** Written conversations whose final SQL the official rules judge wrong, kept as realistic misses. */
const JUDGED_WRONG = new Set([498]);

describe.skipIf(!hasSpider)('recorded conversations replayed on the Spider databases', () => {
  const sources = [
    ...written.map((f) => ({ name: `written ${f.slice(writtenDir.length + 1)}`, path: f })),
    ...recorded.map((f) => ({ name: `recorded ${f.slice(recordedDir.length + 1)}`, path: f })),
  ];

  it.each(sources.map((s) => [s.name, s.path]))('%s reaches its final SQL', async (name, path) => {
    const c = load(path);
    const q = devQuestions()[c.devIndex];
    expect({ db_id: c.db_id, question: c.question }).toEqual({ db_id: q.db_id, question: q.question });
    const { events, remaining } = await replay(c);
    const last = events[events.length - 1];
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toEqual([]);
    expect(last).toMatchObject({ type: 'final', sql: c.finalSql });
    expect(remaining).toBe(0);
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(c.modelRequests);
    // The conversations written here answer right by Spider's official rules, except the ones their
    // README lists (a model reading the question loosely); among the real recordings,
    // spider-dev-255 is right where Spider's reference is not, so only ours are held to it.
    if (name.startsWith('written') && !JUDGED_WRONG.has(c.devIndex))
      expect(await officialMatch((await database(c.db_id)).exec, q.query, c.finalSql)).toBe(1);
  });
});
