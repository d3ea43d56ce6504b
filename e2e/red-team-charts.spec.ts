// Red team, issue 35, items 11 and 12 in the page: a chart whose labels hold characters XML 1.0
// forbids is saved as an SVG the browser itself reads as XML, and as a PNG made from it; a result
// of 100,000 rows is charted from 2,000 of its points.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { openApp, runSql } from './support';

const LABELS_SQL = `SELECT 'soh' || char(1) AS label, 3 AS n
UNION ALL SELECT 'vt' || char(11), 5
UNION ALL SELECT 'nonchar' || char(65535), 2`;

async function download(page: Page, button: string): Promise<Buffer> {
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: button, exact: true }).click();
  return readFileSync((await (await saved).path())!);
}

test('item 11: the SVG and PNG of a chart whose labels hold U+0001, U+000B and U+FFFF', async ({ page }) => {
  await openApp(page);
  await runSql(page, LABELS_SQL);
  await expect(page.getByTestId('grid-count')).toHaveText('3 rows');
  await page.getByRole('button', { name: 'Chart', exact: true }).click();
  const chart = page.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-type', 'bar');
  await expect(chart).toHaveAttribute('aria-busy', 'false');

  const svg = (await download(page, 'SVG')).toString('utf8');
  // Chromium's own XML parser: a file it cannot read gives a <parsererror> document.
  const read = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      labels: [...doc.querySelectorAll('text')].map((t) => t.textContent ?? ''),
    };
  }, svg);
  expect(read.error).toBeNull();
  expect(read.labels).toEqual(expect.arrayContaining(['soh⟨U+0001⟩', 'vt⟨U+000B⟩', 'nonchar⟨U+FFFF⟩']));

  const png = await download(page, 'PNG');
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // The browser decodes it as an image of the chart's size (twice the SVG's, for sharpness).
  const size = await page.evaluate(
    async (bytes) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
      return { width: bitmap.width, height: bitmap.height };
    },
    [...png],
  );
  expect(size.width).toBeGreaterThan(600);
  expect(size.height).toBeGreaterThan(300);
  await expect(page.getByText(/could not be (made|drawn)/)).toHaveCount(0);
});

test('item 12: a result of 100,000 rows is charted from 2,000 of its points', async ({ page }) => {
  // The grid holds up to the page size (at most 100,000 rows): the chart is made from those.
  await page.addInitScript(() => {
    localStorage.setItem('dowser.settings', JSON.stringify({ embeddingDownload: false, pageSize: 100_000 }));
  });
  await openApp(page);
  await runSql(
    page,
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
SELECT i * 0.5 AS x, (i * 7919) % 1000 AS y FROM n`,
  );
  await expect(page.getByTestId('grid-count')).toHaveText('100,000 rows');
  // The longest main-thread task from the click to the drawn chart, for the report (not asserted).
  await page.evaluate(() => {
    const w = window as unknown as { longest: number };
    w.longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
    }).observe({ type: 'longtask' });
  });
  await page.getByRole('button', { name: 'Chart', exact: true }).click();
  const chart = page.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-type', 'scatter');
  await expect(chart).toHaveAttribute('aria-busy', 'false');
  await expect(chart.locator('svg circle')).toHaveCount(2000);
  await expect(page.getByTestId('chart-description')).toContainText('(2000 of 100000 points drawn)');
  const longest = await page.evaluate(() => (window as unknown as { longest: number }).longest);
  console.log(`longest main-thread task, click to chart of 100,000 rows: ${Math.round(longest)} ms`);
});
