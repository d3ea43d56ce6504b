// Issue 11, "Then": the built page's Content-Security-Policy and Referrer-Policy, no contact
// with the model hub by default, and offline use after the first visit (service worker).
import { expect, test, type Page } from '@playwright/test';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startMockLlm, type MockLlm } from './mock-llm/server';
import { resultRows, runSql } from './support';

test.use({ serviceWorkers: 'allow' });

const dist = path.join(import.meta.dirname, '..', 'dist');
const tinyModel = path.join(import.meta.dirname, '..', 'src', 'test-fixtures', 'tiny-model');

/** Every CSP violation the page reports, kept across reloads. */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const seen = JSON.parse(sessionStorage.getItem('violations') ?? '[]') as string[];
      seen.push(`${e.violatedDirective} ${e.blockedURI}`);
      sessionStorage.setItem('violations', JSON.stringify(seen));
    });
  });
  return async () => JSON.parse((await page.evaluate(() => sessionStorage.getItem('violations'))) ?? '[]') as string[];
}

async function demoReady(page: Page) {
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.table-list li').first()).toBeVisible();
}

async function semanticReady(page: Page) {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('semantic-status')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

test('the built page sends CSP and Referrer-Policy; inline script and unlisted servers are refused', async ({
  page,
}) => {
  mock = await startMockLlm({ script: () => ({ text: 'OK' }) });
  const other = await startMockLlm({ script: () => ({ text: 'OK' }) });
  try {
    await page.addInitScript((url) => {
      localStorage.setItem(
        'dowser.model',
        JSON.stringify({ version: 2, settings: { provider: 'openai', preset: 'custom', baseUrl: url, model: 'm' } }),
      );
    }, mock.url);
    const violations = await watchViolations(page);
    const response = await page.goto('/');
    // No blob: script (decision 071).
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(response!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response!.headers()['referrer-policy']).toBe('no-referrer');
    await demoReady(page);
    const metas = await page
      .locator('meta[http-equiv="Content-Security-Policy"]')
      .evaluateAll((m) => m.map((e) => e.getAttribute('content')));
    expect(metas[0]).toContain("default-src 'self'");
    // The configured server only: no preset the person did not choose.
    expect(metas[1]).toBe(`connect-src 'self' ${new URL(mock.url).origin}`);

    // An inline script does not run; the configured server answers; another one is refused.
    const probe = await page.evaluate(
      async ({ configured, unlisted }) => {
        const s = document.createElement('script');
        s.textContent = 'window.__inline = 1';
        document.head.append(s);
        const reach = (url: string) =>
          fetch(url).then(
            (r) => r.status,
            () => 'blocked',
          );
        return {
          inline: (window as { __inline?: number }).__inline ?? null,
          configured: await reach(`${configured}/models`),
          unlisted: await reach(`${unlisted}/models`),
        };
      },
      { configured: mock.url, unlisted: other.url },
    );
    expect(probe).toEqual({ inline: null, configured: 200, unlisted: 'blocked' });
    expect(other.requests).toHaveLength(0);
    // The inline script is refused by both copies of the base policy (header and meta), the
    // unlisted server by the policy the page added at start-up.
    const seen = await violations();
    expect(new Set(seen.map((v) => v.split(' ')[0]))).toEqual(new Set(['script-src-elem', 'connect-src']));
    expect(seen.filter((v) => v.startsWith('connect-src'))).toEqual([`connect-src ${other.url}/models`]);
    // A worker takes its policy from its own script's headers, not the page's: the database
    // worker's lets it reach the app only, not even the configured model server.
    const dbWorker = page.workers().find((w) => w.url().includes('/db.worker-'));
    expect(dbWorker).toBeDefined();
    const fromWorker = await dbWorker!.evaluate(
      (urls) =>
        Promise.all(
          urls.map((url) =>
            fetch(url).then(
              (r) => r.status,
              () => 'blocked',
            ),
          ),
        ),
      [`${mock.url}/models`, `${other.url}/models`],
    );
    expect(fromWorker).toEqual(['blocked', 'blocked']);
  } finally {
    await other.close();
  }
});

test('with default settings, opening Tools never contacts the model hub', async ({ page, context }) => {
  const outside: string[] = [];
  context.on('request', (r) => {
    const host = new URL(r.url()).hostname;
    if (host !== '127.0.0.1' && host !== 'localhost') outside.push(r.url());
  });
  await context.route(/huggingface\.co|hf\.co/, (r) => r.abort());
  await page.goto('/');
  await demoReady(page);
  await page.getByRole('tab', { name: 'Tools' }).click();
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('semantic-status')).toHaveAttribute('data-status', 'off');
  await expect(page.getByTestId('semantic-status')).toContainText('Semantic column search is off');
  expect(outside).toEqual([]);
});

test.describe('offline', () => {
  // A self-hosted embedding model in the app's folder, as `npm run models:fetch` would leave it.
  test.beforeAll(() => cpSync(tinyModel, path.join(dist, 'models', 'tiny-model'), { recursive: true }));
  test.afterAll(() => rmSync(path.join(dist, 'models'), { recursive: true, force: true }));

  test('after the first visit the app loads and works with every request blocked', async ({ page, context }) => {
    test.setTimeout(180_000);
    await page.addInitScript(() => {
      if (!localStorage.getItem('dowser.settings'))
        localStorage.setItem(
          'dowser.settings',
          JSON.stringify({ version: 2, settings: { embeddingModel: 'tiny-model' } }),
        );
    });
    const violations = await watchViolations(page);

    // First visit: online. The service worker installs and precaches the build.
    await page.goto('/');
    await demoReady(page);
    await page.waitForFunction(
      async () => !!(await navigator.serviceWorker.ready) && !!navigator.serviceWorker.controller,
      null,
      {
        timeout: 120_000,
      },
    );
    await semanticReady(page);

    // Second visit: nothing reaches the network.
    const reached: string[] = [];
    await context.route('**/*', (route) => {
      reached.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    await context.setOffline(true);
    await page.reload();
    await demoReady(page);
    await runSql(page, 'SELECT count(*) AS n FROM customers');
    await expect(resultRows(page)).toHaveCount(2);
    await expect(page.locator('.monaco-editor').first()).toBeVisible();
    await semanticReady(page);
    await page.getByLabel('Phrase').fill('clients');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByTestId('tool-output').locator('tbody')).toContainText('embedding');
    // The scripted demo answers offline too.
    await page.getByRole('tab', { name: 'Ask', exact: true }).click();
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await expect(page.getByTestId('final')).toBeVisible({ timeout: 30_000 });
    // Only the self-hosted model is asked for on the network first (to pick up a newer copy);
    // that was blocked like every request, and the cached copy served.
    expect(reached.filter((url) => !new URL(url).pathname.startsWith('/models/'))).toEqual([]);
    expect(await violations()).toEqual([]);
  });
});
