// Issue 35, item 1: a contact list without a header row had its first person taken as the column
// names, so at every privacy level the model server read "columns Quillfeather Moravec TEXT, …",
// and the row was missing from the table. The header is now decided on evidence: that file's first
// row is read as data (columns column_1…), kept in the table, and said on stderr; a file with a
// real header still gets its names.
// @vitest-environment node
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../e2e/mock-llm/server';
import { openaiFlags, runCli } from '../test-support/run-cli';
import { CONTACTS, contactsCsv, fixtureDir, type FixtureDir } from './import-fixtures';

let files: FixtureDir;
let mock: MockLlm | undefined;

beforeAll(() => {
  files = fixtureDir('item-01');
});
afterAll(() => files.remove());
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const SCRIPT = [
  { text: '```sql\nSELECT count(*) FROM contacts\n```' },
  { text: 'Verdict: match\nExplanation: The number of contacts.' },
];

async function askSchemaOnly(path: string, ...extra: string[]) {
  mock = await startMockLlm({ script: SCRIPT });
  const r = await runCli([
    'ask',
    '--db',
    path,
    ...openaiFlags(mock.url),
    '--privacy',
    'schema',
    '--question',
    'How many contacts are there?',
    ...extra,
  ]);
  return { ...r, sent: mock.requests.map((q) => JSON.stringify(q.body)).join('\n') };
}

describe('item 1: a headerless CSV', () => {
  it('at --privacy schema, no cell of its first row reaches the model server', async () => {
    const path = files.write('contacts.csv', contactsCsv());
    const r = await askSchemaOnly(path);
    expect(mock!.requests.length, r.stderr).toBeGreaterThan(0);
    for (const cell of CONTACTS[0]) expect(r.sent).not.toContain(cell);
    expect(r.sent).toContain('column_1');
    expect(r.stderr).toContain(
      'contacts.csv: first row read as data (its values look like the rows below); columns column_1…column_4; --header yes if it names the columns',
    );
  });

  it('keeps the first row in the table', async () => {
    const path = files.write('contacts.csv', contactsCsv());
    const r = await runCli(['sql', '--db', path, `SELECT count(*), sum(column_1 = '${CONTACTS[0][0]}') FROM contacts`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\b${CONTACTS.length}\\s*\\|\\s*1\\b`));
  });

  it('a file with a real header still gets its names, and says which names it took', async () => {
    const path = files.write('contacts.csv', contactsCsv(['name', 'town', 'word', 'email']));
    const r = await askSchemaOnly(path);
    expect(r.sent).toContain('email');
    expect(r.sent).toContain('town');
    expect(r.stderr).toMatch(
      /contacts\.csv: first row read as column names \(.+\): name, town, word, email; --header no if it is data/,
    );
  });

  it('--header yes and --header no decide it; a wrong value is a usage error', async () => {
    const path = files.write('contacts.csv', contactsCsv());
    const yes = await runCli(['sql', '--db', path, '--header', 'yes', 'SELECT count(*) FROM contacts']);
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stdout).toMatch(new RegExp(`\\b${CONTACTS.length - 1}\\b`));
    expect(yes.stderr).toContain('first row read as column names (as --header yes says)');
    const named = files.write('named.csv', contactsCsv(['name', 'town', 'word', 'email']));
    const no = await runCli([
      'sql',
      '--db',
      named,
      '--header',
      'no',
      "SELECT count(*) FROM named WHERE column_4 = 'email'",
    ]);
    expect(no.code, no.stderr).toBe(0);
    expect(no.stdout).toMatch(/\b1\b/);
    const bad = await runCli(['sql', '--db', path, '--header', 'maybe', 'SELECT 1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--header must be yes, no or auto');
  });

  it('dowser import says the same, and --header yes there names the columns from the first row', async () => {
    const path = files.write('contacts.csv', contactsCsv());
    const out = `${files.dir}/contacts.sqlite`;
    const r = await runCli(['import', path, '--out', out, '--force']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('contacts.csv: first row read as data');
    const q = await runCli(['sql', '--db', out, 'SELECT count(*) FROM contacts']);
    expect(q.stdout).toMatch(new RegExp(`\\b${CONTACTS.length}\\b`));
  });
});
