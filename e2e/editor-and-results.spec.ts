// The SQL tab as people use it (issue 12): the grid names the SQL behind its rows, exports take
// that SQL, "Preview rows" shows rows where the person is, the editor lets the keyboard out, and
// a typo gets SQLite's syntax error.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { openApp, resultRows, runSql, setSql } from './support';

test('the grid says which SQL made its rows; after an edit it says so and exports keep that SQL', async ({ page }) => {
  await openApp(page);
  await runSql(page, 'SELECT name FROM products ORDER BY name LIMIT 4');
  await expect(page.getByTestId('results-status')).toContainText('4 rows');
  const source = page.getByTestId('result-source');
  await expect(source.getByTestId('result-sql')).toHaveText('SELECT name FROM products ORDER BY name LIMIT 4');
  await expect(page.getByTestId('result-changed')).toHaveCount(0);

  await setSql(page, 'SELECT count(*) FROM customers');
  await expect(page.getByTestId('result-changed')).toContainText('The editor changed since these rows were made');
  const sqlDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: '.sql', exact: true }).click();
  const sqlFile = readFileSync((await (await sqlDownload).path())!, 'utf8');
  expect(sqlFile).toContain('SELECT name FROM products ORDER BY name LIMIT 4');
  expect(sqlFile).not.toContain('count(*)');
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV' }).click();
  const csv = readFileSync((await (await csvDownload).path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toBe('name');
  expect(csv).toHaveLength(5);

  await page.getByRole('button', { name: 'Put this SQL back in the editor' }).click();
  await expect(page.getByTestId('result-changed')).toHaveCount(0);
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('FROM products');
});

test('Preview rows from the Ask tab shows the rows there; from Tools it opens the SQL tab', async ({ page }) => {
  await openApp(page);
  await expect(page.getByRole('tab', { name: 'Ask', exact: true })).toHaveAttribute('aria-selected', 'true');
  const table = page.locator('.table-list li').filter({ hasText: 'customers' }).first();
  await table.locator('.table-item').click();
  await table.getByRole('button', { name: 'Preview rows' }).click();
  const rows = page.getByTestId('ask-rows');
  await expect(rows).toBeVisible();
  await expect(rows).toContainText('Rows of customers');
  await expect(rows.getByTestId('result-source')).toContainText('Preview of customers');
  await expect(rows.getByRole('table', { name: 'Query results' }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Ask', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Question')).toBeVisible();
  await rows.getByRole('button', { name: 'Close' }).click();
  await expect(rows).toHaveCount(0);

  await page.getByRole('tab', { name: 'Tools', exact: true }).click();
  await table.getByRole('button', { name: 'Preview rows' }).click();
  await expect(page.getByRole('tab', { name: 'SQL', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('result-source')).toContainText('Preview of customers');
  await expect(resultRows(page).nth(1)).toBeVisible();
});

test("a typo gets SQLite's syntax error with its position, a write is still refused", async ({ page }) => {
  await openApp(page);
  await runSql(page, 'SELEC * FROM customers');
  const error = page.getByTestId('query-error');
  await expect(error).toHaveAttribute('data-code', 'sql_error');
  await expect(error).toHaveText('near "SELEC": syntax error (line 1, column 1)');
  await runSql(page, 'SELECT *\nFRM customers');
  await expect(error).toHaveText('near "FRM": syntax error (line 2, column 1)');
  await runSql(page, 'DELETE FROM customers');
  await expect(error).toHaveAttribute('data-code', 'read_only');
});

test('the keyboard leaves the editor: Esc then Tab, or Ctrl+M; the hint says so', async ({ page }) => {
  await openApp(page);
  await setSql(page, 'SELECT 1');
  const hint = page.getByTestId('editor-hint');
  await expect(hint).toContainText('Esc then Tab');
  await expect(hint.getByTestId('tab-mode')).toHaveText('(now: Tab indents)');
  const inEditor = () => page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'));
  // Tab alone indents and stays.
  await page.keyboard.press('Tab');
  expect(await inEditor()).toBe(true);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  expect(await inEditor()).toBe(false);
  await expect(page.getByRole('checkbox', { name: 'Enter accepts a suggestion too' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  expect(await inEditor()).toBe(true);
  // Shift+Tab back into the editor, then out backwards the same way.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: 'Run ▶' })).toBeFocused();

  await page.locator('.monaco-editor').first().click();
  await page.keyboard.press('Control+M');
  await expect(hint.getByTestId('tab-mode')).toHaveText('(now: Tab moves focus)');
  await page.keyboard.press('Tab');
  expect(await inEditor()).toBe(false);
});

test('Enter starts a new line while a suggestion shows; Tab accepts it; Enter can be set to accept', async ({
  page,
}) => {
  await openApp(page);
  await setSql(page, '');
  const suggest = page.locator('.monaco-editor .suggest-widget.visible');
  // Monaco draws spaces as no-break spaces.
  const text = async () =>
    (await page.locator('.monaco-editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
  await page.keyboard.type('SELECT * FROM custo');
  await expect(suggest).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('.monaco-editor .view-line')).toHaveCount(2);
  expect(await text()).toContain('FROM custo');
  expect(await text()).not.toContain('customers');

  await setSql(page, '');
  await page.keyboard.type('SELECT * FROM custo');
  await expect(suggest).toBeVisible();
  await page.keyboard.press('Tab');
  await expect.poll(text).toContain('FROM customers');

  await page.getByRole('checkbox', { name: 'Enter accepts a suggestion too' }).check();
  await setSql(page, '');
  await page.keyboard.type('SELECT * FROM custo');
  await expect(suggest).toBeVisible();
  await page.keyboard.press('Enter');
  await expect.poll(text).toContain('FROM customers');
});
