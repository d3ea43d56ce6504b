import { expect, test } from '@playwright/test';
import { dropFixture, openApp, uploadFixture } from './support';

test('the demo database loads on first visit with tables, row counts and a view', async ({ page }) => {
  await openApp(page);
  const list = page.locator('.table-list');
  await expect(list.locator('li[data-table="customers"]')).toContainText('200');
  await expect(list.locator('li[data-table="order_items"]')).toBeVisible();
  await expect(page.locator('.kind-view').first()).toBeVisible();
  await expect(page.getByText(/tables?, \d+ views?/)).toBeVisible();
  // The starter query is in the editor and its rows are shown.
  await page.getByRole('tab', { name: 'SQL', exact: true }).click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('categories');
  await expect(page.getByTestId('results-status')).toContainText('10 rows');
});

test('a file chosen with the file picker shows its schema, keys and statistics', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'tricky.sqlite');
  await expect(page.getByRole('button', { name: 'tricky.sqlite', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  const list = page.locator('.table-list');
  await expect(list.locator('li[data-table="order details"]')).toBeVisible();
  await expect(list.locator('li[data-table="café"]')).toBeVisible();
  await list.locator('li[data-table="order details"] .table-item').click();
  const detail = list.locator('li[data-table="order details"] .table-detail');
  await expect(detail.locator('.badge-pk').first()).toBeVisible();
  // statistics on demand
  const firstColumn = detail.locator('.column-name').first();
  await firstColumn.click();
  await expect(detail.getByTestId('column-stats')).toContainText('Distinct');
});

test('a file dropped on the page opens too, and foreign keys link to their tables', async ({ page }) => {
  await openApp(page);
  await dropFixture(page, 'tiny.sqlite');
  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toHaveAttribute('aria-current', 'true');
  const list = page.locator('.table-list');
  await list.locator('li[data-table="pets"] .table-item').click();
  await list.locator('li[data-table="pets"] .badge-fk').click();
  await expect(list.locator('li[data-table="people"] .table-detail')).toBeVisible();
  // the filter finds tables by column name
  await page.getByLabel('Filter tables and columns').fill('species');
  await expect(list.locator('li')).toHaveCount(1);
  await expect(list.locator('li[data-table="pets"]')).toBeVisible();
});

test('switching between open databases keeps each one', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.locator('li[data-table="pets"]')).toBeVisible();
  await page.getByRole('button', { name: 'demo.sqlite', exact: true }).click();
  await expect(page.locator('li[data-table="customers"]')).toBeVisible();
  await page.getByRole('button', { name: 'tiny.sqlite', exact: true }).click();
  await expect(page.locator('li[data-table="pets"]')).toBeVisible();
});

test('choosing a file that is already open shows its tab instead of opening it twice (issue 38)', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.locator('li[data-table="pets"]')).toBeVisible();
  await page.getByRole('button', { name: 'demo.sqlite', exact: true }).click();
  await expect(page.locator('li[data-table="customers"]')).toBeVisible();
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.getByText('"tiny.sqlite" is already open: it is shown.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('li[data-table="pets"]')).toBeVisible();
});

test('recent files: names are always remembered, bytes only with consent, and reopen after a reload', async ({
  page,
}) => {
  await openApp(page);
  // Without consent: the name is listed, reopening asks for the file again.
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.locator('li[data-table="pets"]')).toBeVisible();
  await page.getByRole('button', { name: 'Recent' }).click();
  await expect(page.getByRole('dialog', { name: 'Recent files' })).toContainText('tiny.sqlite');
  await expect(page.getByRole('dialog', { name: 'Recent files' })).toContainText('name only');
  await page.getByRole('button', { name: 'Recent' }).click();

  // With consent: the bytes are kept in IndexedDB and the file reopens after a reload.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel(/Remember opened files on this device/).check();
  await page.getByRole('button', { name: 'Settings' }).click();
  await uploadFixture(page, 'tricky.sqlite');
  await expect(page.locator('li[data-table="order details"]')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Recent' }).click();
  await page
    .getByRole('dialog', { name: 'Recent files' })
    .getByRole('button', { name: 'tricky.sqlite', exact: true })
    .click();
  await expect(page.getByRole('button', { name: 'tricky.sqlite', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await expect(page.locator('li[data-table="order details"]')).toBeVisible();
});

test('the explorer states size, version and integrity of the open file', async ({ page }) => {
  await openApp(page);
  await expect(page.getByTestId('db-info')).toContainText(/SQLite 3\.\d+\.\d+ · integrity ok · opened in \d+ ms/);
});
