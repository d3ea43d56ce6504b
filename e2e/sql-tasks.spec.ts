// Direct mode by the question box, and Explain / Fix / Optimize on the editor's SQL, against the
// mock OpenAI-compatible server: what the page shows, and what the server received.
import { expect, test, type Page } from '@playwright/test';
import initSqlJs from 'sql.js';
import { startMockLlm, type MockLlm, type MockReply } from './mock-llm/server';
import { openApp, setSql, useMockModel } from './support';

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function withMock(page: Page, script: MockReply[]) {
  mock = await startMockLlm({ script });
  await useMockModel(page, mock.url);
  await openApp(page);
  return mock;
}

const sentText = (m: MockLlm, i: number) =>
  JSON.stringify(m.requests.filter((r) => r.path.endsWith('/chat/completions'))[i]?.messages);

test('Direct: one call without tools, the failed SQL repaired once, run and explained', async ({ page }) => {
  const m = await withMock(page, [
    { text: "SELECT first_nam, last_name FROM customers WHERE country = 'Canada' ORDER BY last_name LIMIT 3" },
    {
      text: "```sql\nSELECT first_name, last_name FROM customers WHERE country = 'Canada' ORDER BY last_name LIMIT 3\n```",
    },
    { text: 'Explanation: Three customers who live in Canada, by last name.\nVerdict: match' },
  ]);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByRole('radio', { name: 'Direct' }).check();
  await page.getByLabel('Question').fill('Three customers in Canada?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const run = page.getByTestId('run');
  await expect(run.getByTestId('final-rows').locator('tbody tr')).toHaveCount(3);
  await expect(run.getByTestId('explanation')).toContainText('Three customers who live in Canada');
  await expect(run).toContainText('Direct (one call, no tools)');
  const requests = m.requests.filter((r) => r.path.endsWith('/chat/completions'));
  expect(requests[0].tools).toBeUndefined();
  expect(sentText(m, 0)).toContain('# customers(customer_id, first_name, last_name');
  expect(sentText(m, 0)).toContain('### Question: \\"Three customers in Canada?\\"');
  // The repair turn carries SQLite's error and the close names.
  expect(sentText(m, 1)).toContain('no such column: first_nam');
  expect(sentText(m, 1)).toMatch(/Close names[^"]*customers\.first_name/);
  await expect(page.getByTestId('direct-too-large')).toHaveCount(0);

  // Fix… on another statement does not put this question in its field (issue 25); on the
  // answer's own SQL it does.
  await setSql(page, 'SELECT count(*) FROM orders');
  await page.getByRole('button', { name: 'Fix…' }).click();
  await expect(page.getByLabel('What the SQL should answer')).toHaveValue('');
  await page.getByRole('button', { name: 'Fix…' }).click();
  await setSql(page, "SELECT first_name, last_name FROM customers WHERE country = 'Canada' ORDER BY last_name LIMIT 3");
  await page.getByRole('button', { name: 'Fix…' }).click();
  await expect(page.getByLabel('What the SQL should answer')).toHaveValue('Three customers in Canada?');
});

async function wideDb(): Promise<Buffer> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  for (let t = 0; t < 120; t++) {
    const cols = Array.from({ length: 15 }, (_, c) => `measurement_column_${c} TEXT`).join(', ');
    db.run(`CREATE TABLE survey_table_${t} (id INTEGER PRIMARY KEY, ${cols})`);
  }
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

test('Direct on a schema too large for it: the page says so and offers Auto', async ({ page }) => {
  await withMock(page, []);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'wide.sqlite', mimeType: 'application/octet-stream', buffer: await wideDb() });
  await expect(page.getByRole('button', { name: 'wide.sqlite', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByRole('radio', { name: 'Direct' }).check();
  const warning = page.getByTestId('direct-too-large');
  await expect(warning).toContainText(/about [\d,]+ tokens as Direct's prompt, above the 4,000/);
  await warning.getByRole('button', { name: 'Use Auto' }).click();
  await expect(page.getByRole('radio', { name: 'Auto' })).toBeChecked();
  await expect(warning).toHaveCount(0);
});

test('Explain: any SQL in the editor in plain words, with its tables, filters and groupings', async ({ page }) => {
  const m = await withMock(page, [
    { text: 'Explanation: For each country, how many customers opted in to marketing, most first.\nVerdict: unsure' },
  ]);
  await setSql(
    page,
    'SELECT country, count(*) AS n FROM customers WHERE marketing_opt_in = 1 GROUP BY country ORDER BY n DESC',
  );
  await page.getByRole('button', { name: 'Explain' }).click();
  const card = page.getByTestId('sql-task');
  await expect(card.getByTestId('task-explanation')).toContainText('how many customers opted in');
  await expect(card).toContainText('customers');
  await expect(card).toContainText('marketing_opt_in = 1');
  await expect(card.locator('dd').nth(2)).toHaveText('country');
  // The model saw the result's columns and first rows, quoted as data.
  expect(sentText(m, 0)).toMatch(/Result columns: \\"country\\", \\"n\\"/);
});

test('Fix: the model receives the SQLite error, its close names and the note; the fix runs and shows as a diff', async ({
  page,
}) => {
  const m = await withMock(page, [
    { text: "SELECT first_name, city FROM customers WHERE country = 'Canada' ORDER BY city LIMIT 4" },
  ]);
  await setSql(page, "SELECT first_name, cty FROM customers WHERE country = 'Canada' ORDER BY city LIMIT 4");
  await page.getByRole('button', { name: 'Fix…' }).click();
  await page.getByLabel('What the SQL should answer').fill('Four Canadian customers and their cities');
  await page.getByLabel('What is wrong').fill('the city column is misspelt');
  await page.getByRole('button', { name: 'Fix', exact: true }).click();
  const card = page.getByTestId('fix-card');
  await expect(card).toHaveAttribute('data-status', 'fixed');
  await expect(card.getByTestId('sql-diff-before')).toContainText('SELECT first_name, cty FROM customers');
  await expect(card.getByTestId('sql-diff-after')).toContainText('SELECT first_name, city FROM customers');
  await expect(card.getByTestId('sql-diff-before').locator('del')).toHaveText('cty');
  await expect(card.getByTestId('task-rows').locator('tbody tr')).toHaveCount(4);
  const sent = sentText(m, 0);
  expect(sent).toContain('no such column: cty');
  expect(sent).toMatch(/Close names[^"]*customers\.city/);
  expect(sent).toContain('Four Canadian customers and their cities');
  expect(sent).toContain('the city column is misspelt');
  await card.getByRole('button', { name: 'Use this SQL' }).click();
  await expect(page.locator('.monaco-editor').first()).toContainText('first_name, city FROM');
  // Used means run: the rows below are the fixed statement's (issue 25).
  await expect(page.getByTestId('grid-count')).toHaveText('4 rows');
  // A screen reader hears how it ended (issue 25).
  await expect(page.getByTestId('page-announcer')).toContainText(
    'Fixed in round 1; the fixed SQL and its rows are below the editor.',
  );
});

test('Fix: after two rounds that do not work, it says what it tried', async ({ page }) => {
  await withMock(page, [{ text: 'SELECT nme FROM customers' }, { text: 'SELECT nm FROM customers' }]);
  await setSql(page, 'SELECT name FROM customers');
  await page.getByRole('button', { name: 'Fix…' }).click();
  await page.getByRole('button', { name: 'Fix', exact: true }).click();
  const card = page.getByTestId('fix-card');
  await expect(card).toHaveAttribute('data-status', 'not_fixed');
  await expect(card).toContainText('No fix after 2 rounds. Tried:');
  await expect(card.getByTestId('fix-attempt')).toHaveCount(2);
});

test('Optimize: a rewrite with different results is rejected, with both query plans side by side', async ({ page }) => {
  await withMock(page, [{ text: "SELECT customer_id FROM orders WHERE status = 'delivered'" }]);
  await setSql(page, "SELECT DISTINCT customer_id FROM orders WHERE status = 'delivered'");
  await page.getByRole('button', { name: 'Optimize' }).click();
  const card = page.getByTestId('optimize-card');
  await expect(card).toHaveAttribute('data-status', 'rejected');
  await expect(card.getByTestId('optimize-verdict')).toContainText(
    /Different results: it returns \d+ rows instead of \d+/,
  );
  await expect(card.getByTestId('query-plans').locator('pre').first()).toContainText(/SCAN|SEARCH/);
  await expect(card.getByTestId('query-plans').locator('pre').nth(1)).toContainText(/SCAN|SEARCH/);
  await expect(card.getByRole('button', { name: 'Use the rewrite' })).toHaveCount(0);
});
