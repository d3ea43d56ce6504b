// Red team, round four, item 2: a follow-up under schema only, after a turn answered at full,
// must not send that turn's literals through its result's column names. SQLite names an
// un-aliased expression by its text, so `max(CASE WHEN name='…' THEN code END)` is a column name
// that holds a cell value the SQL line already withholds.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../e2e/mock-llm/server';
import { sentText } from '../../../e2e/fixtures/privacy-run';
import { CHECK_SYSTEM_START } from '../../core/agent/explain';
import { WITHHELD_VALUE } from '../../core/privacy/disclose';
import { buildDb } from '../../test-support/build-db';
import { openaiFlags, runCli } from '../test-support/run-cli';

const MEMBERS_SQL = `
CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT NOT NULL, badge INTEGER);
INSERT INTO members VALUES
  (1, 'Wistan Ferrowby', 'Hollowmere', 4471),
  (2, 'Ysolde Carrack', 'Tennerby', 5582),
  (3, 'Aubric Lantermoor', 'Hollowmere', 6693);
`;
const MARKERS = ['Wistan', 'Ferrowby'];
/** The model's first answer: an expression SQLite names by its own text, a literal inside. */
const FIRST_SQL = "SELECT max(CASE WHEN name='Wistan Ferrowby' THEN badge END) FROM members";
/** The follow-up's answer: the model at schema only never saw the name, so it writes none. */
const SECOND_SQL = 'SELECT town FROM members ORDER BY id LIMIT 1';

let dir: string;
let db: string;
let mock: MockLlm | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-red-team-02-'));
  db = join(dir, 'members.sqlite');
  writeFileSync(db, await buildDb(MEMBERS_SQL));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('red team 4, item 2: earlier turns at a fuller level', () => {
  it('a follow-up at schema only withholds the literal in an earlier column name, as in its SQL', async () => {
    let answer = FIRST_SQL;
    mock = await startMockLlm({
      script: (req) =>
        JSON.stringify(req.messages).includes(CHECK_SYSTEM_START)
          ? { text: 'Verdict: match\nExplanation: The badge.' }
          : { text: '```sql\n' + answer + '\n```' },
    });
    const t1 = join(dir, 't1.json');
    const first = await runCli([
      'ask',
      '--db',
      db,
      '--question',
      'What is the badge of the oldest member?',
      ...openaiFlags(mock.url),
      '--privacy',
      'full',
      '--transcript',
      t1,
    ]);
    expect(first.code).toBe(0);
    // The attack is real: at full the value reached the model, and the column is named by it.
    expect(sentText(mock.requests)).toContain('Wistan Ferrowby');
    const before = mock.requests.length;
    answer = SECOND_SQL;
    const second = await runCli([
      'ask',
      '--db',
      db,
      '--question',
      'and which town is that person from?',
      ...openaiFlags(mock.url),
      '--privacy',
      'schema',
      '--continue',
      t1,
    ]);
    expect(second.code).toBe(0);
    const sent = sentText(mock.requests.slice(before));
    expect(sent).toContain('Earlier in this conversation');
    expect(sent).toContain(`columns \\"max(CASE WHEN name='${WITHHELD_VALUE}' THEN badge END)\\"`);
    for (const m of MARKERS) expect(sent).not.toContain(m);
  });
});
