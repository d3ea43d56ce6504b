import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { openApp, resultRows, runSql, uploadFixture } from './support';

test('a query runs; NULL, HTML-looking text and numbers render as text; CSV downloads exactly', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.locator('li[data-table="people"]')).toBeVisible();
  await runSql(page, 'SELECT id, name, city FROM people ORDER BY id');
  await expect(page.getByTestId('results-status')).toContainText('5 rows');
  const grid = page.getByRole('table', { name: 'Query results' });
  await expect(grid.locator('.grid-cell.null').first()).toHaveText('NULL');
  await expect(grid.getByText('<b>bold</b>')).toBeVisible();
  await expect(grid.locator('b')).toHaveCount(0);

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('tiny-result.csv');
  const csv = readFileSync((await download.path())!, 'utf8');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('id,name,city');
  expect(csv).toMatch(/"[^"]*,[^"]*"/); // the name with a comma is quoted
  expect(csv).toContain('""'); // the embedded quote is doubled
  expect(csv.endsWith('\r\n') || !csv.endsWith('\n')).toBe(true);
});

test('writes are refused with a clear message', async ({ page }) => {
  await openApp(page);
  await runSql(page, 'DELETE FROM customers');
  await expect(page.getByTestId('query-error')).toContainText('Only reading is allowed');
  await runSql(page, 'SELECT count(*) FROM customers');
  await expect(resultRows(page).nth(1)).toContainText('200');
});

test('a runaway query is stopped by the time limit and the next query works', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Query time limit in seconds').fill('2');
  await page.getByRole('button', { name: 'Settings' }).click();
  await runSql(page, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r');
  await expect(page.getByTestId('results-status')).toHaveText('Running…');
  await expect(page.getByTestId('query-error')).toContainText('time limit', { timeout: 20_000 });
  await runSql(page, 'SELECT count(*) FROM orders');
  await expect(page.getByTestId('results-status')).toContainText('1 row');
});

test('Cancel stops a running query at once', async ({ page }) => {
  await openApp(page);
  await runSql(page, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r');
  await expect(page.getByTestId('results-status')).toHaveText('Running…');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('query-error')).toContainText('Cancelled');
  await runSql(page, 'SELECT 42 AS answer');
  await expect(resultRows(page).nth(1)).toContainText('42');
});

test('large results are virtualised and can fetch more rows', async ({ page }) => {
  await openApp(page);
  await runSql(
    page,
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 50000) SELECT n, n * 2 AS twice FROM r',
  );
  await expect(page.getByTestId('results-status')).toContainText('1,000+ rows');
  expect(await page.locator('.grid-row').count()).toBeLessThan(200);
  await page.getByRole('button', { name: 'Fetch more' }).click();
  await expect(page.getByTestId('results-status')).toContainText('2,000+ rows');
});

test('the statement under the cursor runs, not the whole editor', async ({ page }) => {
  await openApp(page);
  await runSql(page, 'SELECT 1 AS first;\nSELECT 2 AS second;');
  // The cursor ends in the second statement.
  await expect(page.getByRole('table', { name: 'Query results' })).toContainText('second');
});

test('the editor completes table names of the active database', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.locator('li[data-table="pets"]')).toBeVisible();
  await runSql(page, 'SELECT * FROM pe');
  await page.keyboard.press('Control+Space');
  await expect(page.locator('.suggest-widget .monaco-list-rows')).toContainText('pets');
});

test('JSON export holds every row of a result, beyond the first page', async ({ page }) => {
  await openApp(page);
  await runSql(page, 'SELECT order_id, status FROM orders ORDER BY order_id');
  await expect(page.getByTestId('results-status')).toContainText('1,000+ rows');
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'JSON' }).click();
  const download = await downloadPromise;
  const rows = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  expect(rows).toHaveLength(2000);
  expect(rows[0]).toEqual({ order_id: 1, status: expect.any(String) });
});

test('the .sql download carries the statement with a comment header', async ({ page }) => {
  await openApp(page);
  await runSql(page, 'SELECT count(*) FROM customers');
  await expect(page.getByTestId('results-status')).toContainText('1 row');
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: '.sql', exact: true }).click();
  const text = readFileSync((await (await downloadPromise).path())!, 'utf8');
  expect(text).toMatch(/^-- .*demo\.sqlite/m);
  expect(text).toContain('SELECT count(*) FROM customers');
});
