// What the page benches share (bench-open-page.mjs, bench-csv-page.mjs): Debian's Chromium as
// Playwright drives it here, and the resident memory of all its processes.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

/** Resident memory of every Chromium process, MB. */
export function chromiumRssMB() {
  const out = execFileSync('ps', ['-C', 'chromium', '-o', 'rss='], { encoding: 'utf8' });
  return out.split('\n').reduce((n, l) => n + (Number(l.trim()) || 0), 0) / 1024;
}

export function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/**
 * A fresh page of the built app at `url` (service worker blocked, 1366×768), with `settings`
 * saved first and the longest main-thread task recorded in `window.__longest`, reset once the
 * demo has loaded and settled.
 */
export async function openBenchPage(browser, url, settings = null) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await page.addInitScript((saved) => {
    if (saved) localStorage.setItem('dowser.settings', JSON.stringify({ version: 2, settings: saved }));
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: false });
  }, settings);
  await page.goto(url);
  await page.locator('.table-list li').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000);
  await page.evaluate(() => (window.__longest = 0));
  return { context, page };
}

/** Samples Chromium's memory every 100 ms; `stop()` gives the peak above what it held at the start, MB. */
export function sampleMemory() {
  const before = chromiumRssMB();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, chromiumRssMB())), 100);
  return {
    stop() {
      clearInterval(sampler);
      return peak - before;
    },
  };
}
