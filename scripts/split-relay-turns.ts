/**
 * A relay folder's replies as one scripted turn file per question (src/test-fixtures/relay): the
 * run was `dowser eval --concurrency 1`, so results.jsonl is in the order the questions were asked
 * and each record says how many model requests its question made. Each question's first request
 * is checked to show its question.
 *
 *   npx tsx scripts/split-relay-turns.ts /tmp/relay-auto /tmp/measure-auto auto src/test-fixtures/relay/auto \
 *     [/tmp/measure-questions.json]
 *
 * A SParC run (`--dataset sparc`) needs no questions file: each record names its interaction and
 * turn, and the files are `sparc-<interaction>-<turn>.json`.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [relay, measure, mode, out, questionsFile = '/tmp/measure-questions.json'] = process.argv.slice(2);
if (!out) throw new Error('usage: split-relay-turns.ts RELAY_DIR MEASURE_DIR MODE OUT_DIR [QUESTIONS]');
type Listed = { question: string; db_id: string; question_id: string };
const records = readFileSync(join(measure, 'results.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map(
    (l) =>
      JSON.parse(l) as {
        id: string;
        question: string;
        dbId: string;
        interaction?: number;
        turn?: number;
        finalSql: string | null;
        status: string;
        cost: { requests: number };
      },
  );
const conversational = records.some((r) => r.interaction !== undefined);
let questions: Listed[] | null = null;
const read = (name: string) => JSON.parse(readFileSync(join(relay, name), 'utf8'));
mkdirSync(out, { recursive: true });
let n = 1;
for (const r of records) {
  const q: Listed = conversational
    ? { question: r.question, db_id: r.dbId, question_id: `sparc-${r.id}` }
    : (questions ??= JSON.parse(readFileSync(questionsFile, 'utf8')) as Listed[])[Number(r.id)];
  // The question's start up to any character JSON escapes, as the request's text shows it.
  const start = q.question.split(/["\\\n]/)[0].slice(0, 30);
  // A question that failed (the model was not reached in time) counts no requests, but the relay
  // may hold the one it sent: it is skipped, with no turn file.
  // A question skipped before its model was asked (no database file) holds no request.
  if (r.status === 'skipped' && r.cost.requests === 0) continue;
  if (r.status === 'failed') {
    // Asked as the question (a line of its own), not named in a later turn's thread ("1. Question: …").
    const asked = `\nQuestion: ${JSON.stringify(start).slice(0, -1)}`;
    while (existsSync(join(relay, `req-${n}.txt`)) && readFileSync(join(relay, `req-${n}.txt`), 'utf8').includes(asked))
      n++;
    continue;
  }
  if (!readFileSync(join(relay, `req-${n}.txt`), 'utf8').includes(start))
    throw new Error(`request ${n} does not show question ${r.id}: the folder and the results disagree`);
  const turns = [];
  for (let i = n; i < n + r.cost.requests; i++) {
    const resp = read(`resp-${i}.json`) as {
      content?: string;
      tool_calls?: Array<{ name: string; arguments: unknown }>;
    };
    turns.push({
      ...(resp.content ? { text: resp.content } : {}),
      ...(resp.tool_calls?.length
        ? {
            toolCalls: resp.tool_calls.map((c) => ({
              name: c.name,
              arguments: typeof c.arguments === 'string' ? JSON.parse(c.arguments) : c.arguments,
            })),
          }
        : {}),
    });
  }
  n += r.cost.requests;
  const [dataset, index] = q.question_id.split('-');
  const source =
    dataset === 'spider'
      ? { dataset, index: Number(index) }
      : { dataset, interaction: r.interaction ?? Number(index), turn: r.turn ?? 0 };
  const file = {
    id: q.question_id,
    mode,
    source,
    db_id: q.db_id,
    finalSql: r.finalSql,
    modelRequests: r.cost.requests,
    correct: r.status === 'correct',
    turns,
  };
  writeFileSync(join(out, `${q.question_id}.json`), JSON.stringify(file, null, 1) + '\n');
}
const answered = readdirSync(relay).filter((f) => f.startsWith('resp-')).length;
console.log(`${mode}: ${records.length} questions, ${n - 1} of ${answered} replies used`);
