// The results grid (issue 24): sort by a header, filter a column and every column, numbers with
// digit grouping or as stored, copy as TSV, and a capped result sorted by SQLite for every row.
import { expect, test, type Page } from '@playwright/test';
import { openApp, runSql } from './support';

/** The text of one column's cells, in the order the rows show (the first ones rendered). */
async function columnTexts(page: Page, column: number): Promise<string[]> {
  return page
    .getByRole('table', { name: 'Query results' })
    .locator('.grid-row')
    .evaluateAll((rows, c) => rows.map((r) => (r.children[c] as HTMLElement).innerText), column);
}

test('sort by a header, filter a column and every column, group digits or not', async ({ page }) => {
  await openApp(page);
  await runSql(
    page,
    'SELECT country, count(*) AS customers, 146934000 + count(*) AS big FROM customers GROUP BY country ORDER BY country',
  );
  const grid = page.getByRole('table', { name: 'Query results' });
  await expect(grid.locator('.grid-row').first()).toBeVisible();
  const total = (await columnTexts(page, 1)).length;
  expect(total).toBeGreaterThan(3);

  // Numbers with the browser's grouping, or as stored.
  expect((await columnTexts(page, 3))[0]).toMatch(/^146,934,\d{3}$/);
  await page.getByLabel('group digits').uncheck();
  expect((await columnTexts(page, 3))[0]).toMatch(/^146934\d{3}$/);
  await page.getByLabel('group digits').check();

  // Sort: ascending, descending, then as the result came.
  const header = grid.getByRole('columnheader', { name: /customers/ });
  await grid.getByRole('button', { name: 'Sort by customers' }).click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const asc = (await columnTexts(page, 2)).map(Number);
  expect(asc).toEqual([...asc].sort((a, b) => a - b));
  await grid.getByRole('button', { name: 'Sort by customers' }).click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const desc = (await columnTexts(page, 2)).map(Number);
  expect(desc).toEqual([...asc].sort((a, b) => b - a));
  await expect(page.getByTestId('grid-count')).toContainText(`${total} of ${total} rows, sorted`);
  await grid.getByRole('button', { name: 'Sort by customers' }).click();
  await expect(header).toHaveAttribute('aria-sort', 'none');
  const countries = await columnTexts(page, 1);
  expect(countries).toEqual([...countries].sort());

  // A number range on one column, then text over every column.
  await page.getByLabel('Filter customers').fill('>10');
  await expect(page.getByTestId('grid-count')).toHaveText(new RegExp(`^\\d+ of ${total} rows$`));
  const kept = (await columnTexts(page, 2)).map(Number);
  expect(kept.length).toBeGreaterThan(0);
  expect(kept.every((n) => n > 10)).toBe(true);
  await page.getByRole('button', { name: 'Clear sort and filters' }).click();
  await expect(page.getByTestId('grid-count')).toHaveText(`${total} rows`);
  await page.getByLabel('Filter rows').fill('united');
  const united = await columnTexts(page, 1);
  expect(united.length).toBeGreaterThan(0);
  expect(united.every((c) => c.toLowerCase().includes('united'))).toBe(true);
  await page.getByLabel('Filter rows').fill('no country is called this');
  await expect(page.getByTestId('grid-none')).toBeVisible();

  // A header's edge dragged to the right widens its column.
  const countryHeader = grid.getByRole('columnheader', { name: /country/ });
  const before = (await countryHeader.boundingBox())!;
  const edge = (await countryHeader.locator('.col-resize').boundingBox())!;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x + 120, edge.y + edge.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await countryHeader.boundingBox())!.width).toBeGreaterThan(before.width + 80);
});

test('picked rows and a cell copy as tab-separated text', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page);
  await runSql(page, 'SELECT customer_id, first_name, country FROM customers ORDER BY customer_id LIMIT 5');
  const grid = page.getByRole('table', { name: 'Query results' });
  await grid.locator('.rownum-pick').nth(1).click();
  await grid
    .locator('.rownum-pick')
    .nth(3)
    .click({ modifiers: ['Shift'] });
  await expect(grid.locator('.grid-row.picked')).toHaveCount(3);
  await page.getByRole('button', { name: 'Copy 3 rows' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const lines = copied.split('\r\n');
  expect(lines[0]).toBe('customer_id\tfirst_name\tcountry');
  expect(lines).toHaveLength(4);
  expect(lines[1].split('\t')[0]).toBe('2');

  // A click on a cell, Ctrl+C: that cell (no rows picked).
  await grid
    .locator('.rownum-pick')
    .nth(1)
    .click({ modifiers: ['Control'] });
  await grid
    .locator('.rownum-pick')
    .nth(2)
    .click({ modifiers: ['Control'] });
  await grid
    .locator('.rownum-pick')
    .nth(3)
    .click({ modifiers: ['Control'] });
  await expect(grid.locator('.grid-row.picked')).toHaveCount(0);
  const cell = grid.locator('.grid-row').nth(4).locator('.grid-cell').nth(2);
  await cell.click();
  await page.keyboard.press('Control+C');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(await cell.innerText());
});

test('a capped result says it sorts the rows it holds, and SQLite sorts every row on request', async ({ page }) => {
  await openApp(page);
  // 2,000 orders; the grid holds the first 1,000.
  await runSql(page, 'SELECT order_id, order_date FROM orders ORDER BY order_id');
  await expect(page.getByTestId('results-status')).toContainText('1,000+ rows');
  await page.getByRole('table', { name: 'Query results' }).getByRole('button', { name: 'Sort by order_id' }).click();
  await page.getByRole('table', { name: 'Query results' }).getByRole('button', { name: 'Sort by order_id' }).click();
  expect((await columnTexts(page, 1))[0]).toBe('1000');
  await expect(page.getByTestId('grid-capped')).toContainText('first 1,000 rows only');
  await page.getByRole('button', { name: 'Do it for every row in SQLite' }).click();
  await expect(page.getByTestId('result-sql')).toContainText('ORDER BY 1 DESC NULLS LAST');
  await expect.poll(async () => (await columnTexts(page, 1))[0]).toBe('2000');
});

test('a large result is first sorted by a column in a worker, then by its ranks on the page', async ({ page }) => {
  await page.addInitScript(() => {
    const raw = JSON.parse(localStorage.getItem('dowser.settings') ?? '{}');
    const settings = raw.version === 2 ? raw.settings : raw;
    localStorage.setItem('dowser.settings', JSON.stringify({ version: 2, settings: { ...settings, pageSize: 30000 } }));
  });
  await openApp(page);
  // 25,000 codes in a scrambled order (past RANK_OFF_THREAD_ROWS, 20,000).
  await runSql(
    page,
    "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 24999) SELECT i, 'code-' || ((i * 7919) % 25000) AS code FROM n",
  );
  await expect(page.getByTestId('grid-count')).toHaveText('25,000 rows');
  const grid = page.getByRole('table', { name: 'Query results' });
  await grid.getByRole('button', { name: 'Sort by code' }).click();
  await expect(page.getByTestId('grid-count')).toHaveText('25,000 of 25,000 rows, sorted');
  expect((await columnTexts(page, 2)).slice(0, 3)).toEqual(['code-0', 'code-1', 'code-2']);
  expect(page.workers().some((w) => w.url().includes('rows.worker'))).toBe(true);
  await grid.getByRole('button', { name: 'Sort by code' }).click();
  await expect(page.getByTestId('grid-count')).toHaveText('25,000 of 25,000 rows, sorted');
  expect((await columnTexts(page, 2))[0]).toBe('code-24999');
});
