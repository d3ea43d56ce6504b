/**
 * Hostile schemas in the built page: how long they block the main thread (issue 11, decision 032;
 * budget: no task over 100 ms). Measured here rather than asserted in e2e/hardening.spec.ts,
 * where the same steps check only what the page does: a timed assertion failed on a loaded
 * machine (125 ms) while the page behaved (issue 28). Each run is a fresh page; the file is
 * chosen through the file input and used as the e2e test uses it:
 * - 10,000 tables: the names show, the list scrolls, the last table is found and opened;
 * - 1,000 nested views: the names show, the last view is opened (read on demand), the background
 *   reading ends (everything read, or its 20 s spent and one "read more").
 * Printed per run: ms until the names show, ms until the steps are done, and the longest
 * main-thread task from choosing the file on (Long Tasks API: none over 50 ms reads as 0).
 *
 *   npm run build && npx vite preview --port 4402 --strictPort --host 127.0.0.1 &
 *   npx tsx scripts/bench-hostile-page.ts http://127.0.0.1:4402/ [runs=3]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { manyTablesDb, nestedViewsDb } from '../src/test-support/hostile-dbs';
import { launchChromium, openBenchPage } from './page-bench.mjs';

const BUDGET_MS = 100;
const [url, runsArg] = process.argv.slice(2);
if (!url) throw new Error('usage: npx tsx scripts/bench-hostile-page.ts URL [runs]');
const runs = Number(runsArg ?? 3);

interface Timing {
  namesMs: number;
  doneMs: number;
}

/** 10,000 tables: every name at once, a virtualised list, the last table's columns on opening it. */
async function manyTables(page: Page, file: string): Promise<Timing> {
  const t0 = Date.now();
  await page.getByTestId('file-input').setInputFiles(file);
  await page.getByText('10000 tables').waitFor({ timeout: 60_000 });
  const namesMs = Date.now() - t0;
  await page.locator('li[data-table="t0"]').waitFor();
  await page.locator('.virtual-table-list').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  const filter = page.getByLabel('Filter tables and columns');
  await filter.fill('t9999');
  await page.locator('li[data-table="t9999"] .table-item').click();
  await page.locator('li[data-table="t9999"] .table-detail').filter({ hasText: 'parent' }).waitFor({ timeout: 40_000 });
  await filter.fill('');
  await page.locator('li[data-table="t9999"]').waitFor();
  return { namesMs, doneMs: Date.now() - t0 };
}

/** 1,000 nested views: the first slice, the last view read on demand, the background reading to its end. */
async function nestedViews(page: Page, file: string): Promise<Timing> {
  const t0 = Date.now();
  await page.getByTestId('file-input').setInputFiles(file);
  await page.getByText('1 table, 1000 views').waitFor({ timeout: 30_000 });
  const namesMs = Date.now() - t0;
  const filter = page.getByLabel('Filter tables and columns');
  await filter.fill('v999');
  const item = page.locator('li[data-table="v999"]');
  await item.waitFor();
  await item.locator('.table-item').click();
  await item.filter({ hasNotText: 'not read yet' }).waitFor({ timeout: 60_000 });
  await filter.fill('');
  const note = page.getByTestId('schema-skipped');
  await waitUntil(
    async () => (await note.count()) === 0 || /not read yet/.test((await note.textContent()) ?? ''),
    60_000,
    'the background reading of the nested views',
  );
  if (await note.count()) {
    const before = await note.textContent();
    await note.getByRole('button', { name: 'read more' }).click();
    await waitUntil(
      async () => (await note.count()) === 0 || (await note.textContent()) !== before,
      30_000,
      'read more',
    );
  }
  return { namesMs, doneMs: Date.now() - t0 };
}

async function waitUntil(done: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} did not end in ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'dowser-bench-hostile-'));
const cases = [
  { name: '10,000 tables', file: path.join(dir, 'many-tables.sqlite'), bytes: manyTablesDb(10_000), steps: manyTables },
  {
    name: '1,000 nested views',
    file: path.join(dir, 'nested-views.sqlite'),
    bytes: nestedViewsDb(1_000),
    steps: nestedViews,
  },
];
for (const c of cases) writeFileSync(c.file, await c.bytes);

const browser = await launchChromium();
console.log(`Budget: no main-thread task over ${BUDGET_MS} ms. ${runs} runs each, a fresh page per run.`);
console.log('| schema | run | names shown ms | steps done ms | longest main-thread task ms | within budget |');
console.log('|---|---|---|---|---|---|');
for (const c of cases) {
  for (let run = 1; run <= runs; run++) {
    const { context, page } = await openBenchPage(browser, url, { embeddingDownload: false });
    await page.evaluate(() => ((window as unknown as { __longest: number }).__longest = 0));
    const { namesMs, doneMs } = await c.steps(page, c.file);
    await page.waitForTimeout(500);
    const longest = Math.round(await page.evaluate(() => (window as unknown as { __longest: number }).__longest));
    await context.close();
    console.log(`| ${c.name} | ${run} | ${namesMs} | ${doneMs} | ${longest} | ${longest < BUDGET_MS ? 'yes' : 'no'} |`);
  }
}
await browser.close();
