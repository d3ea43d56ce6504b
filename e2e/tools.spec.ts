import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openApp, uploadFixture } from './support';

async function openTools(page: Page) {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
}

test.describe('Tools panel (lexical; no model can be downloaded here)', () => {
  test('indexes build with a summary, and the page says search is lexical when no model loads', async ({ page }) => {
    await openApp(page);
    await openTools(page);
    await expect(page.getByTestId('index-status')).toContainText(/Indexes ready: \d+ columns, [\d,]+ distinct values/);
    // The default (model not on this site, no download allowed) is no fault: said plainly, with the way on.
    await expect(page.getByTestId('semantic-status')).toHaveAttribute('data-status', 'off');
    await expect(page.getByTestId('semantic-status')).toContainText('Semantic column search is off');
    await expect(page.getByTestId('semantic-status')).toContainText('To turn it on, tick "Download the model…"');
  });

  test('search columns: a value named in the question points to its column', async ({ page }) => {
    await openApp(page);
    await openTools(page);
    await page.getByLabel('Phrase').fill('how many customers live in Canada');
    await page.getByRole('button', { name: 'Run' }).click();
    const out = page.getByTestId('tool-output');
    await expect(out.locator('tbody tr').first()).toContainText('customers.country');
    await expect(out.locator('tbody tr').first()).toContainText('value link: "Canada"');
    await expect(page.getByTestId('observation')).toContainText('1. customers.country (TEXT; match 100%)');
  });

  test('search values finds a misspelt value and says how many rows hold it', async ({ page }) => {
    await openApp(page);
    await openTools(page);
    await page.getByRole('tab', { name: 'Search values' }).click();
    await page.getByLabel('Value', { exact: true }).fill('delivred');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByTestId('observation')).toContainText('"delivered" in orders.status');
  });

  test('join path between two tables shows a ready JOIN clause', async ({ page }) => {
    await openApp(page);
    await openTools(page);
    await page.getByRole('tab', { name: 'Join path' }).click();
    await page.getByLabel('Start').fill('customers');
    await page.getByLabel('End').fill('order_items');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByTestId('observation')).toContainText('customers -> orders -> order_items');
    await expect(page.getByTestId('observation')).toContainText(
      'JOIN "orders" ON "orders"."customer_id" = "customers"."customer_id"',
    );
  });

  test('linking a question highlights names and values, as text', async ({ page }) => {
    await openApp(page);
    await uploadFixture(page, 'tiny.sqlite');
    await expect(page.locator('li[data-table="pets"]')).toBeVisible();
    await openTools(page);
    await page.getByRole('tab', { name: 'Link a question' }).click();
    await page.getByLabel('Question').fill('Which pets belong to people in <b>bold</b>?');
    await page.getByRole('button', { name: 'Run' }).click();
    const view = page.getByTestId('link-view');
    await expect(view.locator('mark.link-exact', { hasText: 'pets' })).toBeVisible();
    await expect(view.locator('.linked-question b')).toHaveCount(0);
  });
});

// The real transformers.js loading path in Chromium, with the tiny offline model served as if
// self-hosted under /models/ (no network needed).
test('semantic column search with a self-hosted model', async ({ page }) => {
  const modelDir = path.resolve(import.meta.dirname, '../src/test-fixtures/tiny-model');
  await page.route('**/models/tiny-model/**', (route) => {
    const rel = new URL(route.request().url()).pathname.split('/models/tiny-model/')[1];
    const file = path.join(modelDir, rel);
    if (!file.startsWith(modelDir)) return route.fulfill({ status: 403 });
    try {
      const body = readFileSync(file);
      return route.fulfill({
        status: 200,
        body,
        contentType: rel.endsWith('.json') ? 'application/json' : 'application/octet-stream',
      });
    } catch {
      return route.fulfill({ status: 404, body: 'not found' });
    }
  });
  await page.addInitScript(() => {
    localStorage.setItem('dowser.settings', JSON.stringify({ embeddingModel: 'tiny-model', embeddingDownload: false }));
  });
  await openApp(page);
  await openTools(page);
  await expect(page.getByTestId('semantic-status')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('semantic-status')).toContainText(
    'Semantic + lexical column search (model tiny-model)',
  );
  await page.getByLabel('Phrase').fill('clients');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByTestId('tool-output').locator('tbody')).toContainText('embedding');
});

// A database large enough for the database worker to start a second one that tokenizes the
// values while it reads (decision 014): the page says so, and what it built answers searches.
test('a large database is tokenized in a second worker, and its values and texts are found', async ({ page }) => {
  test.setTimeout(120_000);
  const { buildDb, notesSql } = await import('../src/test-support/build-db');
  const buffer = Buffer.from(await buildDb(notesSql(60_000)));
  await openApp(page);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'notes.sqlite', mimeType: 'application/octet-stream', buffer });
  await expect(page.getByRole('button', { name: 'notes.sqlite', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Tools' }).click();
  const status = page.getByTestId('index-status');
  await expect(status).toHaveAttribute('data-status', 'ready', { timeout: 90_000 });
  await expect(status).toContainText('values tokenized in a second thread');
  await page.getByRole('tab', { name: 'Search values' }).click();
  await page.getByLabel('Value', { exact: true }).fill('Unterwegs');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByTestId('observation')).toContainText('"Ünterwegs" in notes.tag');
});
