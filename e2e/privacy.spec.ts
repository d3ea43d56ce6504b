// Privacy levels in the page, proven by what the mock model server received over a whole run on
// a database of distinctive values (e2e/fixtures/privacy-run.ts); the mock is reached under a
// cloud-looking host name (mapped to 127.0.0.1 by Chromium), so the page asks at first use.
import { expect, test, type Page } from '@playwright/test';
import { buildDb } from '../src/test-support/build-db';
import {
  MATCHING_HIT,
  PRIVACY_DB_SQL,
  PRIVACY_QUESTION,
  PRIVACY_SCRIPT,
  SECRET_VALUES,
  sentText,
  sentToolResults,
} from './fixtures/privacy-run';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { startMockLlm, type MockLlm } from './mock-llm/server';
import { openApp, uploadFixture, useMockModel } from './support';

const CLOUD_HOST = 'llm.dowser-cloud.test';
const KEY = 'sk-test-privacy-secret-7731';

test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${CLOUD_HOST} 127.0.0.1`],
  },
});

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Opens the database and asks; `privacy` gives the stored settings for the server's target. */
async function start(page: Page, privacy?: (target: string) => object) {
  mock = await startMockLlm({ script: PRIVACY_SCRIPT });
  const url = mock.url.replace('127.0.0.1', CLOUD_HOST);
  const settings = privacy?.(`openai ${new URL(url).origin}`);
  await useMockModel(page, url, { key: KEY, privacy: settings });
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'patients.sqlite',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(await buildDb(PRIVACY_DB_SQL)),
  });
  await expect(page.locator('li[data-table="patients"]')).toBeVisible();
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill(PRIVACY_QUESTION);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
}

test('schema only, chosen at first use: no cell value reaches the server; Show prompt shows the body without the key', async ({
  page,
}) => {
  await start(page);
  const dialog = page.getByRole('dialog', { name: 'What may leave the browser' });
  await expect(dialog).toBeVisible();
  expect(mock!.requests).toHaveLength(0);
  // Modal for the keyboard too (issue 25): the focus is in the dialog, and Tab stays there.
  const focusInDialog = () =>
    page.evaluate(() => !!document.activeElement?.closest('[aria-label="What may leave the browser"]'));
  expect(await focusInDialog()).toBe(true);
  for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
  expect(await focusInDialog()).toBe(true);
  await dialog.getByLabel(/Schema only/).check();
  await dialog.getByRole('button', { name: /Continue/ }).click();
  await expect(page.getByTestId('final')).toBeVisible();
  // The person still sees the values: the answer ran on the real data.
  await expect(page.getByTestId('final-rows')).toContainText('2');
  const sent = sentText(mock!.requests);
  for (const value of SECRET_VALUES) expect(sent).not.toContain(value);
  expect(sentToolResults(mock!.requests).join('\n')).not.toContain(MATCHING_HIT);
  expect(sent).toContain('<value withheld>');

  // Show prompt: the exact body of the last request, the key never shown.
  const log = page.getByTestId('prompt-log');
  await log.locator('summary').click();
  await expect(log).toContainText(`Prompts sent to the model (${mock!.requests.length})`);
  await log.getByRole('button', { name: 'Show prompt' }).last().click();
  const body = page.getByTestId('prompt-body');
  await expect(body).toContainText('(row values withheld by the privacy level');
  const shown = await body.textContent();
  expect(JSON.parse(shown!)).toEqual(mock!.requests.at(-1)!.body);
  const prompt = page.getByRole('dialog', { name: 'Prompt' });
  await expect(prompt).toContainText('authorization: [redacted]');
  await expect(prompt).not.toContainText(KEY);
  await page.screenshot({ path: 'reports/privacy-show-prompt.png' });
  await prompt.getByRole('button', { name: 'Close' }).click();

  // Another database's Ask tab lists none of these prompts (issue 38, item 7); back here, they are.
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toBeVisible();
  await expect(page.getByLabel('Question')).toHaveValue('');
  await expect(page.getByTestId('prompt-log')).toHaveCount(0);
  await page.getByRole('button', { name: 'demo.sqlite', exact: true }).click();
  await expect(page.locator('li[data-table="orders"]')).toBeVisible();
  await expect(page.getByTestId('prompt-log')).toHaveCount(0);
  await page.getByRole('button', { name: 'patients.sqlite', exact: true }).click();
  await expect(page.getByTestId('prompt-log')).toContainText(`Prompts sent to the model (${mock!.requests.length})`);

  // The choice is kept: Settings shows it for this server.
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Privacy level')).toHaveValue('schema');
});

test('matches only, as kept from Settings: only the value the question names reaches the server', async ({ page }) => {
  await start(page, (target) => ({ levels: { [target]: 'matches' }, reviewPrompts: false }));
  await expect(page.getByTestId('final')).toBeVisible();
  const sent = sentText(mock!.requests);
  for (const value of SECRET_VALUES) expect(sent).not.toContain(value);
  const tools = sentToolResults(mock!.requests).join('\n');
  expect(tools).toContain(MATCHING_HIT);
  expect(tools).toContain('counts and column names only');
});

test('full: values go out; with review on, nothing is sent before Send', async ({ page }) => {
  await start(page, (target) => ({ levels: { [target]: 'full' }, reviewPrompts: true }));
  const review = page.getByRole('dialog', { name: 'Prompt' });
  await expect(review).toContainText('will be sent when you press Send');
  await expect(page.getByTestId('prompt-body')).toContainText(PRIVACY_QUESTION);
  expect(mock!.requests).toHaveLength(0);
  for (let i = 0; i < PRIVACY_SCRIPT.length; i++) {
    await review.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => mock!.requests.length).toBe(i + 1);
  }
  await expect(page.getByTestId('final')).toBeVisible();
  const sent = sentText(mock!.requests);
  for (const value of SECRET_VALUES) expect(sent).toContain(value);
});
