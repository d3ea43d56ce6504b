// Issue 11 in the page: no stale timer kills work after Cancel, huge values neither crash nor
// freeze the page (cut in the grid, whole on request), the worker gives memory back after a
// zeroblob bomb, and hostile schemas (10,000 tables, 1,000 nested views) stay usable. How long
// they block the main thread is measured by scripts/bench-hostile-page.ts, not asserted here: a
// timed budget failed on a loaded machine (125 ms) while the page behaved (issue 28).

import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hugeCellDb, manyTablesDb, nestedViewsDb } from '../src/test-support/hostile-dbs';
import { openApp, resultRows, runSql } from './support';

const dir = mkdtempSync(path.join(tmpdir(), 'dowser-e2e-hostile-'));
const ENDLESS = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r';

async function writeDb(name: string, bytes: Promise<Uint8Array>): Promise<string> {
  const file = path.join(dir, name);
  writeFileSync(file, await bytes);
  return file;
}

async function setTimeLimit(page: Page, seconds: number) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Query time limit in seconds').fill(String(seconds));
  await page.getByRole('button', { name: 'Settings' }).click();
}

test('after Cancel, no leftover timer kills later queries (the issue scenario, scaled: limit 3 s)', async ({
  page,
}) => {
  await openApp(page);
  await setTimeLimit(page, 3);
  await runSql(page, ENDLESS);
  await expect(page.getByTestId('results-status')).toHaveText('Running…');
  const started = Date.now();
  await page.waitForTimeout(1_000);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('query-error')).toContainText('Cancelled');
  // Queries of about half a second each until well past the cancelled query's old deadline.
  const medium =
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1500000) SELECT count(*) FROM c';
  let runs = 0;
  while (Date.now() - started < 3_000 + 3_000) {
    await runSql(page, `${medium} -- ${runs}`);
    await expect(page.getByTestId('results-status')).toContainText('1 row', { timeout: 10_000 });
    runs++;
  }
  expect(runs).toBeGreaterThan(1);
  await expect(page.getByTestId('query-error')).toHaveCount(0);
  await expect(page.getByText('hit the time limit')).toHaveCount(0);
});

test('printf of 100 million characters: cut in the grid, saved whole on request', async ({ page }) => {
  await openApp(page);
  await runSql(page, "SELECT 'head' AS label, printf('%.*c', 100000000, 'x') AS big");
  await expect(page.getByTestId('results-status')).toContainText('1 row', { timeout: 30_000 });
  await expect(page.getByTestId('results-status')).toContainText('1 long value cut');
  const cell = page.locator('.grid-cell.long');
  await expect(cell).toHaveAttribute('data-length', '100000000');
  // The grid renders a thousand characters, not the value.
  expect((await cell.textContent())!.length).toBeLessThan(1_100);
  await page.getByRole('button', { name: 'Whole value, 100,000,000 characters' }).click();
  const dialog = page.getByRole('dialog', { name: 'Whole value' });
  await expect(dialog.getByTestId('value-size')).toContainText('Text of 100,000,000 characters');
  await expect(dialog.getByRole('button', { name: 'Copy' })).toBeDisabled();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Save as file' }).click();
  const file = await (await download).path();
  const saved = readFileSync(file!);
  expect(saved.length).toBe(100_000_000);
  expect(saved.every((b) => b === 0x78)).toBe(true);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await runSql(page, 'SELECT 42 AS answer');
  await expect(resultRows(page).nth(1)).toContainText('42');
});

test('a long value is copied whole from the grid', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page);
  await runSql(page, "SELECT printf('%.*c', 150000, 'y') || 'END' AS v");
  await page.getByRole('button', { name: 'Whole value, 150,003 characters' }).click();
  await page.getByRole('dialog', { name: 'Whole value' }).getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('dialog', { name: 'Whole value' }).getByRole('status')).toContainText(
    'Copied 150,003 characters',
  );
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.length).toBe(150_003);
  expect(copied.endsWith('yEND')).toBe(true);
});

test('a 200 MB group_concat ends in a readable result and the page keeps working', async ({ page }) => {
  await openApp(page);
  await setTimeLimit(page, 60);
  await runSql(
    page,
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) SELECT group_concat(printf('%.*c', 100000, 'y'), '') AS all_of_it FROM c",
  );
  await expect(page.getByTestId('results-status')).toContainText('1 long value cut', { timeout: 45_000 });
  await expect(page.locator('.grid-cell.long')).toHaveAttribute('data-length', '200000000');
  await runSql(page, 'SELECT count(*) FROM customers');
  await expect(resultRows(page).nth(1)).toContainText('200');
});

test('a file with a 100 MB text cell opens and previews without rendering the value', async ({ page }) => {
  const file = await writeDb('huge-cell.sqlite', hugeCellDb(100_000_000));
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.locator('li[data-table="t"]')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'SQL', exact: true }).click();
  // The starter query (SELECT * FROM t LIMIT 100) runs on open.
  await expect(page.getByTestId('results-status')).toContainText('2 rows', { timeout: 30_000 });
  await expect(page.locator('.grid-cell.long')).toHaveAttribute('data-length', '100000000');
  await expect(page.getByRole('table', { name: 'Query results' })).toContainText('short');
});

test('after zeroblob(1e9) the worker is restarted to give the memory back', async ({ page }) => {
  await openApp(page);
  await setTimeLimit(page, 60);
  await runSql(page, 'SELECT zeroblob(1000000000) AS bomb');
  await expect(page.getByTestId('results-status')).toContainText('1 row', { timeout: 45_000 });
  await expect(page.locator('.grid-cell.blob')).toContainText('BLOB 953.7 MB');
  await expect(page.getByText('restarted to free it')).toBeVisible({ timeout: 20_000 });
  await runSql(page, 'SELECT count(*) FROM customers');
  await expect(resultRows(page).nth(1)).toContainText('200');
});

test('10,000 tables: the explorer lists them all, virtualised, one Tab stop', async ({ page }) => {
  test.setTimeout(120_000);
  const file = await writeDb('many-tables.sqlite', manyTablesDb(10_000));
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByText('10000 tables')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('li[data-table="t0"]')).toBeVisible();
  // Only the visible rows are in the DOM.
  expect(await page.locator('.table-list li').count()).toBeLessThan(100);
  await page.locator('.virtual-table-list').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await page.getByLabel('Filter tables and columns').fill('t9999');
  await page.locator('li[data-table="t9999"] .table-item').click();
  await expect(page.locator('li[data-table="t9999"] .table-detail')).toContainText('parent', { timeout: 40_000 });
  await page.getByLabel('Filter tables and columns').fill('');
  // The whole list again, scrolled to the table opened.
  await expect(page.locator('li[data-table="t9999"]')).toBeVisible();
  // Virtualised, the list is still one Tab stop with arrow keys: Home and End reach rows not yet drawn.
  await page.locator('li[data-table="t9999"] > .table-item').focus();
  await page.keyboard.press('Home');
  await expect(page.locator('li[data-index="0"] > .table-item')).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.locator('li[data-index="9999"] > .table-item')).toBeFocused();
  await expect(page.locator('.table-list .table-item[tabindex="0"]')).toHaveCount(1);
});

test('1,000 nested views: the explorer shows what it read, says what it skipped, reads more on request', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const file = await writeDb('nested-views.sqlite', nestedViewsDb(1_000));
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(file);
  const note = page.getByTestId('schema-skipped');
  // The note goes away once nothing is left unread.
  const skippedNow = async () =>
    (await note.count())
      ? Number((await note.textContent())?.match(/olumns of ([\d,]+)/)?.[1].replace(/,/g, '') ?? 0)
      : 0;
  // Every name at once, the first slice's details, and a note on the rest while it is read.
  await expect(page.getByText('1 table, 1000 views')).toBeVisible({ timeout: 30_000 });
  await expect(note).toContainText(/olumns of [\d,]+ (objects more|objects not read yet)/);
  expect(await skippedNow()).toBeGreaterThan(500);
  // The last view (read last in the background) is read as soon as it is opened: its columns, or
  // why it cannot be read (the browser's stack ends before 999 nested views).
  await page.getByLabel('Filter tables and columns').fill('v999');
  const item = page.locator('li[data-table="v999"]');
  await expect(item).toContainText('not read yet');
  await item.locator('.table-item').click();
  await expect(item).not.toContainText('not read yet', { timeout: 60_000 });
  await expect(item.locator('.table-detail .columns li, .table-detail .error').first()).toHaveText(
    /^x|Maximum call stack|too deep/,
  );
  await page.getByLabel('Filter tables and columns').fill('');
  // The background reading ends: everything read (the note goes), or its 20 s spent (it says so
  // and reads on when asked).
  await expect
    .poll(async () => (await note.count()) === 0 || /not read yet/.test((await note.textContent()) ?? ''), {
      timeout: 60_000,
    })
    .toBe(true);
  const left = await skippedNow();
  if (left > 0) {
    await note.getByRole('button', { name: 'read more' }).click();
    await expect.poll(skippedNow, { timeout: 30_000 }).toBeLessThan(left);
  }
  await runSql(page, 'SELECT x FROM v10');
  await expect(page.getByTestId('results-status')).toContainText('2 rows');
});
