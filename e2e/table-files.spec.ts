// CSV, TSV and JSON files in the page (issue 26): dropped together they become one database, a
// table each, parsed in the database worker; the types and the rows that did not fit are said.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openApp, runSql } from './support';

test('two CSV files chosen together become one database with a table each; misfit rows are reported', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles([
    { name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from('region,zip,units\nNorth,00501,3\nSouth,10001\n') },
    { name: 'regions.json', mimeType: 'application/json', buffer: Buffer.from('[{"region":"North","manager":"Ada"}]') },
  ]);
  // Each file is shown with its columns and their types before the import.
  const dialog = page.getByRole('dialog', { name: 'Import table files' });
  await expect(dialog.locator('[data-file="sales.csv"]')).toContainText('table sales');
  await expect(dialog.getByLabel('Type of zip')).toHaveValue('');
  await expect(dialog.getByLabel('Type of zip').locator('option').first()).toHaveText('As detected (TEXT)');
  await expect(dialog.locator('[data-file="sales.csv"] tbody tr').first()).toContainText('00501');
  await dialog.getByRole('button', { name: 'Import' }).click();
  const db = page.getByRole('button', { name: 'sales.csv + 1 more', exact: true });
  await expect(db).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('.table-list li[data-table="sales"]')).toBeVisible();
  await expect(page.locator('.table-list li[data-table="regions"]')).toBeVisible();
  await expect(page.getByTestId('notice-warning')).toContainText(
    'sales.csv, row 3: 2 fields, 3 expected (the missing ones are NULL)',
  );
  await runSql(page, 'SELECT s.region, s.zip, typeof(s.zip), r.manager FROM sales s JOIN regions r USING (region)');
  await expect(page.getByTestId('grid-count')).toHaveText('1 row');
  const row = page.getByRole('table', { name: 'Query results' }).locator('.grid-row').first();
  await expect(row).toContainText('00501');
  await expect(row).toContainText('text');
  await expect(row).toContainText('Ada');
});

test('a database made from table files is saved as a SQLite file that opens again as one', async ({ page }) => {
  await openApp(page);
  await page
    .getByTestId('file-input')
    .setInputFiles([
      { name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from('region,units\nNorth,3\nSouth,5\n') },
    ]);
  await page.getByRole('dialog', { name: 'Import table files' }).getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('button', { name: 'sales.csv', exact: true })).toHaveAttribute('aria-current', 'true');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save as a SQLite file' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('sales.sqlite');
  const path = await file.path();
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'saved.sqlite', mimeType: 'application/octet-stream', buffer: readFileSync(path) });
  await expect(page.getByRole('button', { name: 'saved.sqlite', exact: true })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('button', { name: 'Save as a SQLite file' })).toHaveCount(0);
  await runSql(page, 'SELECT sum(units) FROM sales');
  await expect(page.getByRole('table', { name: 'Query results' }).locator('.grid-row').first()).toContainText('8');
});

test('a column type chosen before the import is kept; Cancel imports nothing', async ({ page }) => {
  await openApp(page);
  const csv = {
    name: 'stock.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('sku,units,price\n0042,3,9.5\n0043,12,10\n'),
  };
  await page.getByTestId('file-input').setInputFiles([csv]);
  const dialog = page.getByRole('dialog', { name: 'Import table files' });
  await expect(dialog.getByLabel('Type of units').locator('option').first()).toHaveText('As detected (INTEGER)');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'stock.csv', exact: true })).toHaveCount(0);

  await page.getByTestId('file-input').setInputFiles([csv]);
  await dialog.getByLabel('Type of units').selectOption('TEXT');
  await dialog.getByLabel('Type of price').selectOption('INTEGER');
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('button', { name: 'stock.csv', exact: true })).toHaveAttribute('aria-current', 'true');
  await runSql(page, 'SELECT sku, typeof(units), typeof(price) FROM stock ORDER BY sku');
  const rows = page.getByRole('table', { name: 'Query results' }).locator('.grid-row');
  // 9.5 is no whole number: kept as SQLite stores it (a real); 10 became an integer.
  await expect(rows.nth(0)).toContainText('0042');
  await expect(rows.nth(0)).toContainText('text');
  await expect(rows.nth(0)).toContainText('real');
  await expect(rows.nth(1)).toContainText('integer');
});
