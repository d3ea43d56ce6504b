// Auto, the default answer path, in the page against the mock OpenAI-compatible server: one
// grounded request, the evidence turn when a compared value is not stored, the check that explains.
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from './mock-llm/server';
import { openApp, useMockModel } from './support';

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const WRONG = "SELECT first_name, last_name FROM customers WHERE country = 'Kanada' ORDER BY last_name LIMIT 3";
const RIGHT = "SELECT first_name, last_name FROM customers WHERE country = 'Canada' ORDER BY last_name LIMIT 3";

test('Auto answers from one grounded request, says why it asked again, and shows its path', async ({ page }) => {
  mock = await startMockLlm({
    script: [
      { text: '```sql\n' + WRONG + '\n```' },
      { text: '```sql\n' + RIGHT + '\n```' },
      { text: 'Verdict: match\nExplanation: Three customers who live in Canada, by last name.' },
    ],
  });
  await useMockModel(page, mock.url, { mode: 'auto' });
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Auto' })).toBeChecked();
  await page.getByLabel('Question').fill('Three customers in Canada?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const run = page.getByTestId('run');
  await expect(run.getByTestId('final-rows').locator('tbody tr')).toHaveCount(3);
  await expect(run.getByTestId('routes')).toContainText('Answered from the schema and its values');
  await expect(run.getByTestId('routes')).toContainText('one request with every column and its stored values');
  await expect(run).toContainText('· Auto');
  // What the page told the model, and the SQL each reply ran.
  await expect(
    run.getByTestId('step').filter({ hasText: 'is not stored as written in customers.country' }),
  ).toHaveCount(1);
  await expect(run.getByTestId('step').filter({ hasText: WRONG })).toContainText('ran: no rows');
  await expect(run.getByTestId('step').filter({ hasText: 'Sent back to the model:' })).toHaveCount(1);
  await expect(run.getByTestId('explanation')).toContainText('Three customers who live in Canada');
  const requests = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
  expect(requests).toHaveLength(3);
  expect(requests.every((r) => !r.tools)).toBe(true);
  const first = JSON.stringify(requests[0].messages);
  expect(first).toContain('country text');
  expect(first).toContain('Question: \\"Three customers in Canada?\\"');
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: 'test-results/auto-run.png', fullPage: true });
});

test('Auto answers in one request when the reply explains its SQL and the result gives no reason to check', async ({
  page,
}) => {
  mock = await startMockLlm({
    script: [{ text: '```sql\n' + RIGHT + '\n```\nExplanation: Three customers who live in Canada, by last name.' }],
  });
  await useMockModel(page, mock.url, { mode: 'auto' });
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill('Three customers in Canada?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const run = page.getByTestId('run');
  await expect(run.getByTestId('final-rows').locator('tbody tr')).toHaveCount(3);
  await expect(run.getByTestId('requests')).toHaveText('1 model request: 1. the answer');
  await expect(run.getByTestId('verdict')).toContainText('answered in one request');
  await expect(run.getByTestId('explanation')).toContainText('Three customers who live in Canada');
  expect(mock.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
  for (const [width, height] of [
    [1366, 768],
    [800, 700],
  ])
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `test-results/auto-one-request-${width}-${scheme}.png`, fullPage: false });
    }
});

// Issue 37: a LIMIT that picked one of several tied rows is said under the answer, at no request.
test('Auto says under the answer when its LIMIT cut among rows tied on the ORDER BY value', async ({ page }) => {
  const TIED = 'SELECT country, count(*) AS n FROM customers GROUP BY country ORDER BY n ASC LIMIT 3';
  mock = await startMockLlm({
    script: [{ text: '```sql\n' + TIED + '\n```\nExplanation: The three countries with the fewest customers.' }],
  });
  await useMockModel(page, mock.url, { mode: 'auto' });
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill('Which three countries have the fewest customers?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const run = page.getByTestId('run');
  await expect(run.getByTestId('final-rows').locator('tbody tr')).toHaveCount(3);
  await expect(run).toContainText(
    'A row after the first 3 ties with the last one shown on the ORDER BY value: LIMIT 3 cut among them.',
  );
  await expect(run.getByTestId('requests')).toHaveText('1 model request: 1. the answer');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.screenshot({ path: `test-results/auto-tie-note-1366-${scheme}.png`, fullPage: false });
  }
});
