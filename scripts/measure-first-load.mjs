/**
 * Bytes the page transfers on its first load (issue 24: a lazy chart library must not grow it by
 * more than 5%). Open a built page served by `vite preview`, wait for the demo to be ready and 3 s
 * more, and sum what the network carried (encoded, so compressed as served), in all, without the
 * demo database, and for scripts. Three fresh contexts; service workers blocked.
 *
 *   npm run build && npx vite preview --port 4402 --strictPort --host 127.0.0.1 &
 *   node scripts/measure-first-load.mjs http://127.0.0.1:4402/
 *
 * Before/after: build the earlier commit in a git worktree (node_modules linked) and serve it on
 * another port.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const url = process.argv[2];
if (!url) throw new Error('usage: node scripts/measure-first-load.mjs URL');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
});
const runs = [];
for (let r = 0; r < 3; r++) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map();
  const bytes = { total: 0, withoutDemoDb: 0, scripts: 0 };
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
  cdp.on('Network.loadingFinished', (e) => {
    const at = urls.get(e.requestId) ?? '';
    bytes.total += e.encodedDataLength;
    if (!at.endsWith('.sqlite')) bytes.withoutDemoDb += e.encodedDataLength;
    if (at.endsWith('.js')) bytes.scripts += e.encodedDataLength;
  });
  await page.goto(url);
  await page.getByTestId('demo-note').waitFor({ timeout: 60_000 });
  await page.waitForTimeout(3000);
  runs.push(bytes);
  await context.close();
}
await browser.close();
console.log(JSON.stringify(runs));
