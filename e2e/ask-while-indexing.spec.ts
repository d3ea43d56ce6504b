// Asking while the indexes are built (issue 26), in the page: a question on a database whose
// value read takes seconds goes out after at most a second, with each table's first rows (the
// request says so), and the answer's SQL runs against the whole file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import initSqlJs from 'sql.js';
import { startMockLlm, type MockLlm } from './mock-llm/server';
import { openApp, useMockModel } from './support';

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** A database whose value read takes several seconds in the page, written to a file Chromium reads. */
async function visitsDb(rows: number): Promise<string> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`CREATE TABLE visits (id INTEGER PRIMARY KEY, city TEXT, note TEXT);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
    INSERT INTO visits SELECT i, CASE i % 3 WHEN 0 THEN 'Oslo' WHEN 1 THEN 'Lima' ELSE 'Pune' END,
      'visit ' || i || ' ' || hex(randomblob(8)) FROM n;`);
  const path = join(mkdtempSync(join(tmpdir(), 'dowser-visits-')), 'visits.sqlite');
  writeFileSync(path, db.export());
  db.close();
  return path;
}

test('a question during the index build goes out with the first rows of each table, and is answered', async ({
  page,
}) => {
  const sql = "SELECT count(*) AS n FROM visits WHERE city = 'Oslo'";
  mock = await startMockLlm({
    script: [{ text: '```sql\n' + sql + '\n```' }, { text: 'Verdict: match\nExplanation: Visits in Oslo.' }],
  });
  await useMockModel(page, mock.url, { mode: 'auto' });
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(await visitsDb(2_500_000));
  await expect(page.getByRole('button', { name: 'visits.sqlite', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill('How many visits were in Oslo?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('final-rows').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('final-rows')).toContainText('833,333');
  const first = JSON.stringify(mock.requests.filter((r) => r.path.endsWith('/chat/completions'))[0].messages);
  expect(first).toContain('first 10000 rows of each table');
});
