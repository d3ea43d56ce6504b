import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { chromium } = require(new URL('../../node_modules/playwright-core', import.meta.url).pathname);
export function launch() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}
export async function openPage(browser, url, timeout = 60000) {
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page = await ctx.newPage();
  const consoleErrors = [], pageErrors = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(m.type() + ': ' + m.text().slice(0, 300)); });
  page.on('pageerror', (e) => pageErrors.push(String(e.message).slice(0, 300)));
  await page.goto(url);
  await page.waitForFunction(() => window.__done === true, null, { timeout });
  const r = await page.evaluate(() => ({ result: window.__result, violations: window.__violations, errors: window.__errors }));
  await ctx.close();
  return { ...r, consoleErrors, pageErrors };
}
