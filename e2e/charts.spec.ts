// Charts (issue 24): the proposed chart with its reason and description, a change of type and
// columns, SVG and PNG downloads, and the chart library loaded only when a chart is shown.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openApp, runSql } from './support';

const SQL = 'SELECT country, count(*) AS customers FROM customers GROUP BY country ORDER BY customers DESC';

test('a result proposes a chart, the person changes it, and saves it as SVG and PNG', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await openApp(page);
  await runSql(page, SQL);
  // The count the grid states (its rows are virtualised: the DOM holds only those in view).
  await expect(page.getByTestId('grid-count')).toHaveText(/^\d+ rows$/);
  const countries = Number((await page.getByTestId('grid-count').innerText()).split(' ')[0]);
  const beforeChart = scripts.length;

  await page.getByRole('button', { name: 'Chart', exact: true }).click();
  const chart = page.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-type', 'bar');
  await expect(chart).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('chart-reason')).toContainText('Proposed: customers for each country.');
  await expect(chart.locator('svg rect')).toHaveCount(countries);
  await expect(chart.locator('svg').first()).toHaveAttribute('aria-label', /^Bar chart of customers by country/);
  await expect(page.getByTestId('chart-description')).toContainText('highest');
  // The chart's code came when the chart was asked for, not with the page.
  expect(scripts.slice(beforeChart).length).toBeGreaterThan(0);

  // SVG and PNG downloads.
  const svgDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'SVG', exact: true }).click();
  const svg = readFileSync((await (await svgDownload).path())!, 'utf8');
  expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svg).toContain('<title>Bar chart of customers by country');
  const pngDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'PNG', exact: true }).click();
  const png = readFileSync((await (await pngDownload).path())!);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  // Another type and column: a histogram of the counts; then back to the proposal.
  await page.getByLabel('Chart type').selectOption('histogram');
  await page.getByLabel('x', { exact: true }).selectOption({ label: 'customers' });
  await expect(chart).toHaveAttribute('data-type', 'histogram');
  await expect(page.getByTestId('chart-description')).toContainText('Histogram of rows by customers');
  await expect(page.getByTestId('chart-reason')).toHaveText('Your choice.');
  await page.getByRole('button', { name: 'Back to the proposed chart' }).click();
  await expect(chart).toHaveAttribute('data-type', 'bar');

  // Rows again: the grid.
  await page.getByRole('button', { name: 'Rows', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Query results' })).toBeVisible();
});

test('a result that suits no chart says why', async ({ page }) => {
  await openApp(page);
  await runSql(page, 'SELECT first_name, last_name FROM customers LIMIT 5');
  await page.getByRole('button', { name: 'Chart', exact: true }).click();
  await expect(page.getByTestId('chart-reason')).toContainText('No column holds numbers to draw.');
  await expect(page.getByTestId('chart')).toHaveCount(0);
});

test('the answer card shows the chart its rows suit, beside them', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('run')).toHaveAttribute('data-status', 'done');
  const answer = page.getByTestId('final');
  const rows = await answer.getByTestId('final-rows').locator('tbody tr').count();
  const box = answer.getByTestId('answer-chart-box');
  await expect(box).toHaveAttribute('aria-busy', 'false');
  await expect(box).toHaveAttribute('data-type', 'bar');
  await expect(box.locator('svg rect')).toHaveCount(rows);
  await expect(answer.getByTestId('chart-description')).toContainText('Bar chart of total_spent by customer');
});
