// Issue 11, item 1: a link never sends a remembered key to a new server. Two mock servers on
// two ports are two origins: the key entered for A must reach A only, whatever a link says.
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from './mock-llm/server';
import { openApp } from './support';

const KEY = 'sk-e2e-bound-0123456789abcdefXYZ';
let a: MockLlm | undefined;
let b: MockLlm | undefined;
test.afterEach(async () => {
  await a?.close();
  await b?.close();
  a = b = undefined;
});

/** Any short reply: these tests look at what reached each server, not at the answer. */
const script = () => [{ text: 'Hello.' }, { text: 'Hello.' }, { text: 'Hello.' }];

async function configure(page: Page, url: string) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Provider').selectOption('openai');
  await page.getByLabel('Base URL').fill(url);
  await page.getByLabel('Model name').fill('mock-model');
  await page.getByLabel('API key').fill(KEY);
  await page.getByLabel('remembered on this device').check();
  await expect(page.getByTestId('key-target')).toContainText(new URL(url).origin);
  // A server set after the page loaded is reachable after a reload (the page's connect policy).
  // The reload comes after the open files are kept (actions/reload.ts): wait for it, or a later
  // navigation of the test is interrupted by it.
  const reloaded = page.waitForEvent('load');
  await page.getByTestId('reload-note').getByRole('button', { name: 'Reload' }).click();
  await reloaded;
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible();
}

async function ask(page: Page) {
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill('How many customers are there?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('run')).not.toHaveAttribute('data-status', 'running', { timeout: 30_000 });
}

const sawKey = (m: MockLlm) => m.requests.filter((r) => r.headers.authorization === '[present]').length;
const carries = (m: MockLlm, text: string) => m.requests.some((r) => JSON.stringify(r).includes(text));

test('a link to another server asks first, and accepting it never carries the key there', async ({ page }) => {
  a = await startMockLlm({ script: script() });
  b = await startMockLlm({ script: script() });
  await openApp(page);
  await configure(page, a.url);
  await ask(page);
  expect(sawKey(a)).toBeGreaterThan(0);

  // The person opens a link that points the settings at server B.
  await page.goto('about:blank');
  await page.goto(`/#provider=openai&baseUrl=${encodeURIComponent(b.url)}&model=other-model`);
  const prompt = page.getByTestId('link-prompt');
  await expect(prompt).toContainText(b.url);
  await expect(prompt).toContainText('No saved API key goes to a new server');
  // Until the person answers, nothing changed: Ask still goes to A.
  const before = a.requests.length;
  await ask(page);
  expect(a.requests.length).toBeGreaterThan(before);
  expect(b.requests).toHaveLength(0);

  await prompt.getByRole('button', { name: "Use the link's settings (reloads the page)" }).click();
  await expect(prompt).toBeHidden();
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
  await ask(page);
  expect(b.requests.length).toBeGreaterThan(0);
  expect(b.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  expect(carries(b, KEY)).toBe(false);
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('API key')).toHaveValue('');
  await expect(page.getByTestId('key-target')).toContainText(new URL(b.url).origin);

  // Back to A by typing its URL: its own key comes back, and only there.
  await page.getByLabel('Base URL').fill(a.url);
  await expect(page.getByLabel('API key')).toHaveValue(KEY);
});

test('refusing the link keeps the settings, and a reload does not ask again', async ({ page }) => {
  a = await startMockLlm({ script: script() });
  b = await startMockLlm({ script: script() });
  await openApp(page);
  await configure(page, a.url);
  await page.goto('about:blank');
  await page.goto(`/#provider=openai&baseUrl=${encodeURIComponent(b.url)}`);
  await page.getByTestId('link-prompt').getByRole('button', { name: 'Keep my settings' }).click();
  await page.reload();
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible();
  await expect(page.getByTestId('link-prompt')).toBeHidden();
  await ask(page);
  expect(sawKey(a)).toBeGreaterThan(0);
  expect(b.requests).toHaveLength(0);
});
