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
