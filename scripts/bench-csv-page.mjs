/**
 * Importing a CSV in the built page (issue 26: within 2x SQLite's own `.import`, the main thread
 * never blocked over 100 ms). For each file: a fresh page, the file chosen through the file
 * input, its preview dialog, then Import; the time from Import to the database being ready, the
 * longest main-thread task from choosing the file on, and the peak memory of all Chromium
 * processes above what they held before; then `sqlite3 :memory: '.import --csv'` on the same
 * file for the ratio, in the same run.
 *
 *   npm run build && npx vite preview --port 4402 --strictPort --host 127.0.0.1 &
 *   node scripts/bench-csv-page.mjs http://127.0.0.1:4402/ <file.csv>...
 *   (npx tsx scripts/bench-csv-import.ts <MB> writes such a file and prints where)
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { launchChromium, openBenchPage, sampleMemory } from './page-bench.mjs';

const [url, ...files] = process.argv.slice(2);
if (!url || files.length === 0) throw new Error('usage: node scripts/bench-csv-page.mjs URL file.csv...');

const browser = await launchChromium();
console.log(
  '| file | size MB | page import ms | sqlite3 .import ms | ratio | longest main-thread task ms | peak memory above before MB |',
);
console.log('|---|---|---|---|---|---|---|');
for (const file of files) {
  const { context, page } = await openBenchPage(browser, url);
  const memory = sampleMemory();
  await page.getByTestId('file-input').setInputFiles(file);
  const dialog = page.getByRole('dialog', { name: 'Import table files' });
  await dialog.waitFor();
  const t0 = Date.now();
  await dialog.getByRole('button', { name: 'Import' }).click();
  const tab = page.locator('.db-tab', { has: page.getByRole('button', { name: basename(file), exact: true }) });
  await tab.and(page.locator('[data-status="ready"]')).waitFor({ timeout: 900_000 });
  const pageMs = Date.now() - t0;
  const aboveMB = memory.stop();
  const longest = await page.evaluate(() => window.__longest);
  await context.close();
  const t1 = Date.now();
  execFileSync('sqlite3', [':memory:', `.import --csv ${file} t`, 'SELECT count(*) FROM t'], { stdio: 'ignore' });
  const sqliteMs = Date.now() - t1;
  console.log(
    `| ${basename(file)} | ${Math.round(statSync(file).size / 1024 ** 2)} | ${pageMs} | ${sqliteMs} | ${(pageMs / sqliteMs).toFixed(2)} | ${Math.round(longest)} | ${Math.round(aboveMB)} |`,
  );
}
await browser.close();
