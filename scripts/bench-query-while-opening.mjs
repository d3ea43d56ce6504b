/**
 * A query run right after a large file opens (issue 38): how long until its rows show, against the
 * time the worker says it ran, with or without an index build started first (the Tools tab).
 * The difference is what the query waited behind other work (the integrity check, a build's step).
 *
 *   npm run build && npx vite preview --port 4402 --strictPort --host 127.0.0.1 &
 *   node scripts/bench-query-while-opening.mjs http://127.0.0.1:4402/ <shop.sqlite> [build]
 */
import { launchChromium, openBenchPage } from './page-bench.mjs';
const [url, file, mode] = process.argv.slice(2);
if (!url || !file) throw new Error('usage: node scripts/bench-query-while-opening.mjs URL file.sqlite [build]');
const browser = await launchChromium();
const { page } = await openBenchPage(browser, url, { embeddingDownload: false });
const t0 = Date.now();
const log = (m) => console.log(((Date.now() - t0) / 1000).toFixed(1), m);
await page.getByTestId('file-input').setInputFiles(file);
await page.locator('.db-tab[data-status="ready"]', { hasText: file.split('/').pop() }).waitFor({ timeout: 60000 });
log('ready');
await page.locator('.table-list li').filter({ hasText: 'orders' }).first().waitFor();
log('schema');
if (mode === 'build') {
  await page.getByRole('tab', { name: 'Tools' }).click();
  log('tools clicked');
  await page.waitForTimeout(1500);
  await page.getByRole('tab', { name: 'SQL', exact: true }).click();
}
await page.getByRole('tab', { name: 'SQL', exact: true }).click();
const editor = page.locator('.monaco-editor').first();
await editor.click();
await page.keyboard.press('ControlOrMeta+A');
await page.keyboard.press('Delete');
await page.keyboard.insertText("SELECT count(*) FROM orders WHERE note LIKE '%late%'");
await page.keyboard.press('Escape');
const q0 = Date.now();
await page.keyboard.press('ControlOrMeta+Enter');
await page
  .getByText(/^1 row · [\d.]+ ms$/)
  .or(page.locator('.error'))
  .first()
  .waitFor({ timeout: 120000 });
log('query shown after ' + (Date.now() - q0) + ' ms');
const ran = await page
  .getByText(/^1 row · [\d.]+ ms$/)
  .innerText()
  .catch(() => '(no result)');
log(`the worker says: ${ran}`);
await browser.close();
