/**
 * Opening large SQLite files in the built page (issue 26, decision 064): for each file, a fresh
 * page with the default settings, the file chosen through the file input (Chromium reads it from
 * disk: nothing is copied over the protocol), then the time until the database is ready and until
 * its schema shows (the table list), the longest main-thread task meanwhile, and the peak memory
 * of all Chromium processes above what they held before the file was chosen (sampled every 100 ms).
 *
 *   npm run build && npx vite preview --port 4402 --strictPort --host 127.0.0.1 &
 *   [READ=auto|memory|file] node scripts/bench-open-page.mjs http://127.0.0.1:4402/ <file.sqlite>...
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { launchChromium, openBenchPage, sampleMemory } from './page-bench.mjs';

const [url, ...files] = process.argv.slice(2);
if (!url || files.length === 0) throw new Error('usage: node scripts/bench-open-page.mjs URL file.sqlite...');

const browser = await launchChromium();
console.log(
  '| file | size | read | ready ms | schema shown ms | longest main-thread task ms | peak memory above before MB |',
);
console.log('|---|---|---|---|---|---|---|');
for (const file of files) {
  const { context, page } = await openBenchPage(browser, url, {
    embeddingDownload: false,
    readDatabases: process.env.READ ?? 'auto',
  });
  const memory = sampleMemory();
  const t0 = Date.now();
  await page.getByTestId('file-input').setInputFiles(file);
  const tab = page.locator('.db-tab', { has: page.getByRole('button', { name: basename(file), exact: true }) });
  await tab.and(page.locator('[data-status="ready"]')).waitFor({ timeout: 600_000 });
  const readyMs = Date.now() - t0;
  await page.locator('.table-list li').filter({ hasNotText: 'not read yet' }).last().waitFor({ timeout: 600_000 });
  await page.getByTestId('db-info').waitFor();
  const schemaMs = Date.now() - t0;
  const readFrom = await page.getByTestId('db-info').locator('[data-read-from]').getAttribute('data-read-from');
  await page.waitForTimeout(2000);
  const aboveMB = memory.stop();
  const longest = await page.evaluate(() => window.__longest);
  const size = statSync(file).size;
  console.log(
    `| ${basename(file)} | ${(size / 1024 ** 3).toFixed(2)} GiB | ${readFrom} | ${readyMs} | ${schemaMs} | ${Math.round(longest)} | ${Math.round(aboveMB)} |`,
  );
  await context.close();
}
await browser.close();
