// The Evaluate view: a question file run against the open database with a configured model (the
// mock OpenAI-compatible server), the score table, the cost and each miss side by side.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from './mock-llm/server';
import { openApp, useMockModel } from './support';
import { knowingModel } from '../src/test-support/eval-fixtures';

const QUESTIONS = [
  { question: 'How many customers are there?', sql: 'SELECT count(*) FROM customers' },
  { question: 'How many employees are there?', sql: 'SELECT count(*) FROM employees' },
  {
    question: 'Which customers live in Canada?',
    sql: "SELECT first_name, last_name FROM customers WHERE country = 'Canada'",
  },
];
// The model gets the last one half right: the first names only.
const ANSWERS: Record<string, string> = {
  ...Object.fromEntries(QUESTIONS.map((q) => [q.question, q.sql])),
  'Which customers live in Canada?': "SELECT first_name FROM customers WHERE country = 'Canada'",
};

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function chooseFile(page: Page, name: string, text: string) {
  await page.getByRole('tab', { name: 'Evaluate', exact: true }).click();
  await page
    .getByLabel('Question file')
    .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

test('runs a question file with the configured model: score table, cost, the miss side by side', async ({ page }) => {
  const answer = knowingModel((q) => ANSWERS[q]);
  mock = await startMockLlm({
    script: (req) => ({
      ...answer(req),
      usage: { prompt_tokens: 900, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 500 } },
    }),
  });
  await useMockModel(page, mock.url);
  await openApp(page);
  await chooseFile(page, 'mine.json', JSON.stringify(QUESTIONS));
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  const view = page.getByTestId('evaluate');
  await expect(view.getByTestId('eval-status')).toHaveAttribute('data-status', 'done', { timeout: 45_000 });
  await expect(view.getByTestId('eval-status')).toContainText('3 of 3 questions');
  await expect(view.getByTestId('eval-ex')).toHaveText('66.7%');
  const cost = view.getByTestId('eval-cost');
  // Auto, the default: the grounded request and the check of its result, two requests each.
  await expect(cost.getByRole('row', { name: /^input tokens/ })).toContainText('1,800');
  await expect(cost.getByRole('row', { name: /^cached input tokens/ })).toContainText('1,000');
  await expect(cost.getByRole('row', { name: /^model requests/ })).toContainText('2');
  const misses = view.getByTestId('eval-miss');
  await expect(misses).toHaveCount(1);
  await expect(misses).toContainText('Which customers live in Canada?');
  await expect(misses).toContainText('other columns selected');
  await expect(misses.getByTestId('miss-reference')).toContainText(
    "SELECT first_name, last_name FROM customers WHERE country = 'Canada'",
  );
  await expect(misses.getByTestId('miss-reference').locator('th')).toHaveText(['first_name', 'last_name']);
  await expect(misses.getByTestId('miss-answer')).toContainText(
    "SELECT first_name FROM customers WHERE country = 'Canada'",
  );
  await expect(misses.getByTestId('miss-answer').locator('th')).toHaveText(['first_name']);
  // Every question went to the model: its SQL, then the check that explains the result.
  expect(mock.requests).toHaveLength(6);
  expect(mock.requests.every((r) => !r.tools)).toBe(true);
  await page.screenshot({ path: 'test-results/evaluate.png', fullPage: true });
  await expect(view.getByTestId('eval-status')).toContainText('Auto');
  await expect(page.getByTestId('page-announcer')).toContainText('The evaluation is done: 2 of 3 answered right.');

  // The results can be saved: the report dowser eval writes, and one record per question (issue 25).
  const [report] = await Promise.all([
    page.waitForEvent('download'),
    view.getByRole('button', { name: 'Report (.md)' }).click(),
  ]);
  expect(report.suggestedFilename()).toBe('demo-evaluation.md');
  const markdown = readFileSync((await report.path())!, 'utf8');
  expect(markdown).toContain('Dowser evaluation: mine.json on demo.sqlite');
  expect(markdown).toMatch(/\| all \| 3 \| 66\.67 \|/);
  const [records] = await Promise.all([
    page.waitForEvent('download'),
    view.getByRole('button', { name: 'Records (.jsonl)' }).click(),
  ]);
  const lines = readFileSync((await records.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines.map((r) => [r.question, r.ex])).toEqual([
    ['How many customers are there?', 1],
    ['How many employees are there?', 1],
    ['Which customers live in Canada?', 0],
  ]);

  // A reload keeps them: the last evaluation of this file comes back, said to be kept.
  await page.reload();
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Evaluate', exact: true }).click();
  await expect(view.getByTestId('eval-ex')).toHaveText('66.7%');
  await expect(view.getByTestId('eval-status')).toContainText('kept from');
  await expect(view.getByTestId('eval-miss')).toHaveCount(1);
});

test('a broken question file ends in a clear message and the page keeps working', async ({ page }) => {
  mock = await startMockLlm({ script: [] });
  await useMockModel(page, mock.url);
  await openApp(page);
  await chooseFile(page, 'broken.json', '[{"question": "No SQL here?"}]');
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  await expect(page.getByTestId('eval-error')).toHaveText(
    'Question 1 has no reference SQL (a "sql" or "query" field).',
  );
  expect(mock.requests).toHaveLength(0);
  await page.getByRole('tab', { name: 'SQL', exact: true }).click();
  await expect(page.locator('.monaco-editor').first()).toBeVisible();
});
