// The red-team's privacy run (issue 28): a database of 29 marker values, and SQL that makes
// SQLite quote cell values in its error messages (`bad JSON path: '…'`, a whole column with
// group_concat). Under schema only and matches only no marker may reach the model server through
// any command that talks to a model: ask (agent and Auto), direct (its repair turn), fix,
// explain, optimize, link. Under full the same run does send them: proof that the attack works.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm, type MockReply } from '../../e2e/mock-llm/server';
import { buildDb } from '../test-support/build-db';
import { openaiFlags, runCli } from './test-support/run-cli';

const PEOPLE = [
  ['Quillfeather Moravec', 'Vexbridge', 918273, 'zorbium', 'kestrelmoss'],
  ['Tamsin Oakhurst', 'Brindlemoor', 564738, 'xylocaine', 'larchwhistle'],
  ['Ebbe Wrenlow', 'Caskwater', 102938, 'quorvane', 'fennicbrook'],
  ['Odile Pemberthy', 'Dunmarrow', 777123, 'plinthagen', 'orrisvale'],
  ['Yarrow Castellane', 'Thistlecombe', 246801, 'morvexil', 'gallowspire'],
] as const;

const DB_SQL = `CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, city TEXT, code INTEGER, note TEXT, handle TEXT);
INSERT INTO people (name, city, code, note, handle) VALUES
${PEOPLE.map((p) => `(${p.map((v) => (typeof v === 'number' ? v : `'${v}'`)).join(', ')})`).join(',\n')};`;

const QUESTION = 'How many people live in Vexbridge?';

/** Every cell value's words but the question's own city: 29 markers. */
const MARKERS = PEOPLE.flatMap(([name, city, code, note, handle]) => [
  ...name.split(' '),
  ...(city === 'Vexbridge' ? [] : [city]),
  String(code),
  note,
  handle,
]);

/** SQL whose SQLite error quotes cell values: a whole table in one message, and row by row. */
const ATTACKS = [
  `SELECT json_extract('{}', 'x' || group_concat(name || ' ' || city || ' ' || code || ' ' || note || ' ' || handle, ' ')) FROM people`,
  "SELECT json_extract('{}', '$.' || handle || note) FROM people",
  'SELECT count(*) FROM people WHERE json_extract(note, name) IS NULL',
];
const PLAN = { sub_questions: [{ text: 'People of that city', tables: [{ table: 'people', columns: ['city'] }] }] };
const COUNT_SQL = "SELECT count(*) FROM people WHERE city = 'Vexbridge'";

let dir: string;
let db: string;
let mock: MockLlm | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-red-team-'));
  db = join(dir, 'people.sqlite');
  writeFileSync(db, await buildDb(DB_SQL));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const sqlText = (sql: string): MockReply => ({ text: '```sql\n' + sql + '\n```' });

/** Each command that talks to a model, with a script that feeds it the attacks. */
const RUNS: Record<string, { argv: string[]; script: MockReply[] }> = {
  'ask --mode agent': {
    argv: ['ask', '--mode', 'agent', '--question', QUESTION],
    script: [
      { toolCalls: [{ id: 'p', name: 'submit_plan', arguments: PLAN }] },
      ...ATTACKS.map((sql, i) => ({ toolCalls: [{ id: `a${i}`, name: 'execute_sql', arguments: { sql } }] })),
      { toolCalls: [{ id: 'd', name: 'done', arguments: { sql: COUNT_SQL } }] },
      { text: 'Explanation: The people of Vexbridge.\nVerdict: match' },
    ],
  },
  'ask (Auto)': { argv: ['ask', '--question', QUESTION], script: ATTACKS.map(sqlText) },
  direct: { argv: ['direct', QUESTION], script: ATTACKS.map(sqlText) },
  fix: { argv: ['fix', '--question', QUESTION, ATTACKS[0]], script: ATTACKS.slice(1).map(sqlText) },
  explain: {
    argv: ['explain', '--question', QUESTION, ATTACKS[0]],
    script: [{ text: 'Explanation: It fails.\nVerdict: unsure' }],
  },
  optimize: { argv: ['optimize', COUNT_SQL], script: [sqlText(ATTACKS[0])] },
  link: { argv: ['link', QUESTION], script: [sqlText(ATTACKS[0])] },
};

async function sentBy(run: { argv: string[]; script: MockReply[] }, privacy: string) {
  mock = await startMockLlm({ script: run.script });
  const [command, ...rest] = run.argv;
  const r = await runCli([command, '--db', db, ...openaiFlags(mock.url), '--privacy', privacy, ...rest]);
  return { ...r, sent: mock.requests.map((q) => JSON.stringify(q.messages)).join('\n') };
}

const leaked = (text: string) => MARKERS.filter((m) => text.includes(m));

describe('the red-team privacy run: SQLite errors that quote cell values', () => {
  it('has 29 markers, none of them a word of the question', () => {
    expect(MARKERS).toHaveLength(29);
    for (const m of MARKERS) expect(QUESTION).not.toContain(m);
  });

  it('under full, the attacks do bring the values to the model (the attack works)', async () => {
    const r = await sentBy(RUNS['ask --mode agent'], 'full');
    expect(r.sent).toContain('bad JSON path');
    expect(leaked(r.sent).length).toBeGreaterThanOrEqual(25);
  });

  for (const level of ['schema', 'matches'])
    for (const [name, run] of Object.entries(RUNS))
      it(`${name} under ${level}: no marker reaches the server`, async () => {
        const r = await sentBy(run, level);
        expect(mock!.requests.length, r.stderr).toBeGreaterThan(0);
        expect(leaked(r.sent)).toEqual([]);
      });

  it('the model still reads what went wrong: SQLite’s own words stay, the quoted data is withheld', async () => {
    const r = await sentBy(RUNS['ask --mode agent'], 'schema');
    expect(r.sent).toContain("bad JSON path: '<value withheld>'");
  });
});
