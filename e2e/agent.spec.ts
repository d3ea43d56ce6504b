// Full agent runs in the page against a mock OpenAI-compatible server (streaming, native tool
// calls) started by the test, and the scripted demo. No real model and no internet.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { startMockLlm, type MockLlm, type MockReply } from './mock-llm/server';
import { openApp, runSql, useMockModel } from './support';

const SQL = "SELECT c.first_name, c.last_name FROM customers c WHERE c.country = 'Canada' ORDER BY c.last_name LIMIT 3";

function fullRun(extra: Partial<Record<number, MockReply>> = {}): MockReply[] {
  const replies: MockReply[] = [
    {
      text: 'I will plan first.',
      toolCalls: [
        {
          name: 'submit_plan',
          arguments: {
            sub_questions: [
              {
                text: 'Which customers live in Canada?',
                tables: [{ table: 'customers', columns: ['country', 'first_name'] }],
              },
            ],
          },
        },
      ],
    },
    { text: 'Find how Canada is written.', toolCalls: [{ name: 'search_value', arguments: { query: 'Canada' } }] },
    { text: 'Run the query.', toolCalls: [{ name: 'execute_sql', arguments: { sql: SQL } }] },
    { text: 'That answers it.', toolCalls: [{ name: 'done', arguments: { sql: SQL } }] },
    { text: 'It lists three customers who live in Canada, ordered by last name.\nVerdict: match' },
  ];
  for (const [i, r] of Object.entries(extra)) replies.splice(Number(i), 0, r!);
  return replies;
}

async function useMock(page: Page, mock: MockLlm, apiKey = '') {
  await useMockModel(page, mock.url, { key: apiKey });
}

async function askQuestion(page: Page, question: string) {
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill(question);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
}

async function pauseAfterPlan(page: Page) {
  await page.addInitScript(() => {
    const raw = JSON.parse(localStorage.getItem('dowser.settings') ?? '{}');
    const settings = raw.version === 2 ? raw.settings : raw;
    localStorage.setItem(
      'dowser.settings',
      JSON.stringify({ version: 2, settings: { ...settings, embeddingDownload: false, pauseAfterPlan: true } }),
    );
  });
}

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

test('a full run streams plan, steps and the answer; the model is sent the seven tools', async ({ page }) => {
  mock = await startMockLlm({ script: fullRun() });
  await useMock(page, mock);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  const run = page.getByTestId('run');
  await expect(run.getByTestId('plan-card')).toContainText('Which customers live in Canada?');
  await expect(run.getByTestId('plan-card')).toContainText('customers.country');
  await expect(run.getByTestId('final')).toBeVisible();
  await expect(run.getByTestId('final-sql')).toContainText("c.country = 'Canada'");
  await expect(run.getByTestId('final-rows').locator('tbody tr')).toHaveCount(3);
  await expect(run.getByTestId('verdict')).toContainText('matches the question');
  await expect(run.getByTestId('explanation')).toContainText('three customers');
  const tools = run.getByTestId('step');
  await expect(tools.nth(0)).toHaveAttribute('data-tool', 'submit_plan');
  await expect(tools.nth(1)).toHaveAttribute('data-tool', 'search_value');
  await expect(tools.nth(1)).toContainText('"Canada" in customers.country');
  await expect(tools.nth(2)).toHaveAttribute('data-tool', 'execute_sql');
  const first = mock.requests.find((r) => r.path.endsWith('/chat/completions'))!;
  const names = (first.tools as Array<{ function: { name: string } }>).map((t) => t.function.name).sort();
  expect(names).toEqual([
    'ask_user',
    'done',
    'execute_sql',
    'find_shortest_path',
    'search_column',
    'search_value',
    'submit_plan',
  ]);
  // The answer's SQL opens in the editor.
  await run.getByRole('button', { name: 'Open in the SQL editor' }).click();
  await expect(page.getByTestId('results-status')).toContainText('3 rows');
  // The history keeps the run with its steps across a reload.
  await page.reload();
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByTestId('history').locator('summary').click();
  await page.getByTestId('history').getByRole('button', { name: 'Which customers live in Canada?' }).click();
  await expect(page.getByTestId('final-rows').locator('tbody tr')).toHaveCount(3);
  await expect(page.getByTestId('step')).toHaveCount(4);
});

test('a malformed tool call becomes an observation and the run goes on', async ({ page }) => {
  mock = await startMockLlm({
    script: fullRun({ 1: { text: 'Oops.', toolCalls: [{ name: 'search_value', arguments: '{"query": "Can' }] } }),
  });
  await useMock(page, mock);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('final')).toBeVisible();
  await expect(page.getByTestId('run')).toContainText(/not valid JSON|could not be read|Bad arguments/i);
});

test('a refused key shows the key message and the page keeps working', async ({ page }) => {
  mock = await startMockLlm({
    script: [{ error: { status: 401, body: { error: { message: 'Incorrect API key provided: sk-test…' } } } }],
  });
  await useMock(page, mock, 'sk-test-secret-1234');
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('run-error')).toContainText(/key/i);
  await expect(page.getByTestId('run-error')).not.toContainText('sk-test-secret-1234');
  await expect(page.getByRole('button', { name: 'Ask', exact: true })).toBeEnabled();
  expect(mock.requests[0].headers.authorization).toBe('[present]');
});

test('Stop ends a run mid-way and leaves a usable page', async ({ page }) => {
  let calls = 0;
  mock = await startMockLlm({
    script: (_req, i) => {
      calls++;
      return i === 1
        ? { text: 'Thinking very slowly about this one question…', delayMs: 400, chunkSize: 2 }
        : fullRun()[Math.min(i, 4)];
    },
  });
  await useMock(page, mock);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('streaming')).toContainText('Thinking very', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  // The person's Stop reads as a status, not a red error (issue 25).
  await expect(page.getByTestId('run-stopped')).toContainText('Stopped, as you asked');
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Ask', exact: true })).toBeEnabled();
  expect(calls).toBeGreaterThan(1);
});

test('the scripted demo shows the whole flow on the demo database and says no model is answering', async ({ page }) => {
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('demo-note')).toContainText(/no (language )?model/i);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('plan-card')).toBeVisible();
  await expect(page.getByTestId('final')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('final-rows').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('run')).toContainText('scripted demo (no model)');
});

test('an in-browser model says clearly when WebGPU is missing, and the page keeps working', async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem(
      'dowser.model',
      JSON.stringify({ provider: 'webllm', model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', toolMode: 'auto' }),
    );
  });
  await openApp(page);
  await askQuestion(page, 'How many customers are there?');
  await expect(page.getByTestId('run-error')).toContainText('WebGPU');
  await expect(page.getByRole('button', { name: 'Ask', exact: true })).toBeEnabled();
});

test('a run exports as JSON and Markdown (plan, steps, SQL, no key) and a JSON run opens read-only', async ({
  page,
}, testInfo) => {
  await page.addInitScript(() => localStorage.setItem('dowser.model.key', 'sk-should-never-be-exported'));
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('final')).toBeVisible({ timeout: 30_000 });

  const jsonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Run as JSON' }).click();
  const jsonPath = (await (await jsonDownload).path())!;
  const json = readFileSync(jsonPath, 'utf8');
  const data = JSON.parse(json);
  expect(data.events.map((e: { type: string }) => e.type)).toEqual(
    expect.arrayContaining(['plan', 'action', 'observation', 'final']),
  );
  expect(json).not.toContain('sk-should-never-be-exported');

  const mdDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Run as Markdown' }).click();
  const md = readFileSync((await (await mdDownload).path())!, 'utf8');
  expect(md).toContain('## Plan');
  expect(md).toContain('```sql');
  expect(md).not.toContain('sk-should-never-be-exported');

  const copy = testInfo.outputPath('run.json');
  writeFileSync(copy, json);
  await page.reload();
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByTestId('run-import').setInputFiles(copy);
  await expect(page.getByTestId('run')).toContainText('opened from a file (read-only)');
  await expect(page.getByTestId('final-rows').locator('tbody tr').first()).toBeVisible();
});

test('the agent asks when a value is ambiguous; the chosen option reaches the model', async ({ page }) => {
  const replies = fullRun();
  replies.splice(2, 0, {
    text: 'Canada is in two columns.',
    toolCalls: [
      {
        name: 'ask_user',
        arguments: {
          question: 'Do you mean where customers live, or where orders were shipped?',
          options: ['customers.country', 'orders.ship_country'],
        },
      },
    ],
  });
  mock = await startMockLlm({ script: replies });
  await useMock(page, mock);
  await openApp(page);
  // A question that names neither table: "customers" would settle which column holds Canada.
  await askQuestion(page, 'Who is in Canada?');
  const card = page.getByTestId('clarification');
  await expect(card).toContainText('Do you mean where customers live');
  await card.getByRole('button', { name: 'customers.country' }).click();
  await expect(page.getByTestId('final')).toBeVisible();
  const after = mock.requests.filter((r) => r.path.endsWith('/chat/completions'))[3];
  expect(JSON.stringify(after.messages)).toContain('customers.country');
});

test('pause after plan waits for Continue', async ({ page }) => {
  mock = await startMockLlm({ script: fullRun() });
  await useMock(page, mock);
  await pauseAfterPlan(page);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('plan-waiting')).toBeVisible();
  await page.waitForTimeout(500);
  expect(mock.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('final')).toBeVisible();
});

test('a run marked Correct becomes a worked example in the next similar question', async ({ page }) => {
  mock = await startMockLlm({ script: [...fullRun(), ...fullRun()] });
  await useMock(page, mock);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('final')).toBeVisible();
  await page.getByRole('button', { name: '✓ Correct' }).click();
  await expect(page.getByTestId('examples').locator('summary')).toContainText('Confirmed examples (1)');
  const before = mock.requests.length;
  await page.getByLabel('Question').fill('Which customers live in Canada and ordered tents?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  // The new question follows up on the first, which reads above it.
  await expect(page.getByTestId('turn-run')).toHaveCount(1);
  await expect(page.getByTestId('run').getByTestId('final')).toBeVisible();
  const next = mock.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'))!;
  const user = JSON.stringify(next.messages);
  expect(user).toContain('Worked examples the user confirmed on this database');
  expect(user).toContain("c.country = 'Canada'");
});

test('edit the plan, regenerate: the model gets the confirmed plan, and the SQL diff appears', async ({ page }) => {
  const SQL2 = "SELECT c.last_name FROM customers c WHERE c.country = 'Canada' ORDER BY c.last_name LIMIT 3";
  mock = await startMockLlm({
    script: [
      ...fullRun(),
      { text: 'Start from the confirmed columns.', toolCalls: [{ name: 'execute_sql', arguments: { sql: SQL2 } }] },
      { text: 'Done.', toolCalls: [{ name: 'done', arguments: { sql: SQL2 } }] },
      { text: 'Last names of three customers in Canada.\nVerdict: match' },
    ],
  });
  await useMock(page, mock);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('final')).toBeVisible();
  const before = mock.requests.length;

  const plan = page.getByTestId('plan-card');
  await plan.getByRole('button', { name: 'edit' }).click();
  await plan.getByLabel('Sub-question 1', { exact: true }).fill('Last names of customers who live in Canada');
  await plan.getByRole('button', { name: 'Remove customers.first_name' }).click();
  const chipInput = plan.getByLabel('Add a table or column to sub-question 1');
  await chipInput.fill('nope.x');
  await chipInput.press('Enter');
  await expect(plan.getByRole('alert')).toContainText('"nope.x" is not a table or table.column');
  await chipInput.fill('customers.last_name');
  await chipInput.press('Enter');
  await plan.getByRole('button', { name: 'Regenerate from plan' }).click();

  await expect(page.getByTestId('final-sql')).toContainText('c.last_name FROM');
  const first = mock.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'))!;
  const sent = JSON.stringify(first.messages);
  expect(sent).toContain('Plan confirmed by the user');
  expect(sent).toContain('Last names of customers who live in Canada');
  expect(sent).toContain('last_name');
  expect((first.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).not.toContain(
    'submit_plan',
  );
  const diff = page.getByTestId('sql-diff');
  const beforeSide = diff.getByTestId('sql-diff-before');
  const after = diff.getByTestId('sql-diff-after');
  await expect(beforeSide.locator('figcaption')).toHaveText('before');
  await expect(after.locator('figcaption')).toHaveText('after');
  // Word by word: only the removed column is struck, the rest of the line is shared.
  await expect(beforeSide.locator('del')).toHaveText(['first_name, c.']);
  await expect(after).toContainText('SELECT c.last_name FROM customers c');
  await expect(after).not.toContainText('first_name');
  await expect(page.getByTestId('plan-card')).toContainText('confirmed by you');
  // The two runs of the question in History say what differs: the plan was edited.
  await page.getByTestId('history').locator('summary').click();
  const entries = page.getByTestId('history-entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0).locator('mark[data-fact="plan"]')).toHaveText('plan edited');
  await expect(entries.nth(1).locator('mark[data-fact="plan"]')).toHaveText('model’s plan');
  await expect(entries.nth(0).locator('[data-fact="rows"]')).toHaveText('3 rows');
  await expect(entries.nth(0).locator('mark[data-fact="rows"]')).toHaveCount(0);

  // ✓ Correct saves the question the edited plan answers, not the one asked before the edit (issue 38).
  await page.getByRole('button', { name: '✓ Correct' }).click();
  const wording = page.getByLabel(/The question this answer \(from your edited plan\) answers/);
  await expect(wording).toHaveValue('Last names of customers who live in Canada');
  await wording.fill('Last names of three customers in Canada');
  await wording.screenshot({ path: 'reports/correct-edited-question.png' });
  await page.screenshot({ path: 'reports/correct-edited-question-page.png' });
  await page.getByRole('button', { name: 'Save example' }).click();
  const examples = page.getByTestId('examples');
  await expect(examples.locator('summary')).toContainText('Confirmed examples (1)');
  await examples.locator('summary').click();
  await expect(examples).toContainText('Last names of three customers in Canada');
  await expect(examples).not.toContainText('Which customers live in Canada?');
});

test('a long regenerated SQL wraps in the diff instead of running off the edge', async ({ page }) => {
  const cols = Array.from({ length: 30 }, (_, i) => `c.first_name AS name_${i}`).join(', ');
  const LONG = `SELECT ${cols} FROM customers c WHERE c.country = 'Canada' LIMIT 3`;
  mock = await startMockLlm({
    script: [
      ...fullRun(),
      { text: 'Wide.', toolCalls: [{ name: 'execute_sql', arguments: { sql: LONG } }] },
      { text: 'Done.', toolCalls: [{ name: 'done', arguments: { sql: LONG } }] },
      { text: 'Wide result.\nVerdict: unsure' },
    ],
  });
  await useMock(page, mock);
  await page.setViewportSize({ width: 800, height: 700 });
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('final')).toBeVisible();
  const plan = page.getByTestId('plan-card');
  await plan.getByRole('button', { name: 'edit' }).click();
  await plan.getByLabel('Sub-question 1', { exact: true }).fill('Every name of customers in Canada');
  await plan.getByRole('button', { name: 'Regenerate from plan' }).click();
  const diff = page.getByTestId('sql-diff');
  await expect(diff.getByTestId('sql-diff-after')).toContainText('name_29');
  await expect(diff.getByTestId('sql-diff-after').locator('ins').first()).toBeVisible();
  for (const side of ['sql-diff-before', 'sql-diff-after']) {
    const pre = diff.getByTestId(side).locator('pre');
    expect(await pre.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  }
  const box = (await diff.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(800);
});

test('check this step shows the first rows of a small SQL for one sub-question', async ({ page }) => {
  const STEP = "SELECT first_name, country FROM customers WHERE country = 'Canada'";
  mock = await startMockLlm({
    script: [
      ...fullRun(),
      { text: 'A small check.', toolCalls: [{ name: 'execute_sql', arguments: { sql: STEP } }] },
      { text: 'Enough.', toolCalls: [{ name: 'done', arguments: { sql: STEP } }] },
    ],
  });
  await useMock(page, mock);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('final')).toBeVisible();
  await page.getByTestId('plan-card').getByRole('button', { name: 'check this step' }).first().click();
  const preview = page.getByTestId('step-preview');
  await expect(preview).toContainText(STEP);
  await expect(preview.locator('tbody tr')).toHaveCount(5);
});

test('a check that ends without rows shows its own steps and SQL, not events elsewhere', async ({ page }) => {
  const BAD = 'SELECT nope FROM customers';
  mock = await startMockLlm({
    script: [
      ...fullRun(),
      ...Array.from({ length: 5 }, () => ({
        text: 'Try it.',
        toolCalls: [{ name: 'execute_sql', arguments: { sql: BAD } }],
      })),
    ],
  });
  await useMock(page, mock);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('final')).toBeVisible();
  await page.getByTestId('plan-card').getByRole('button', { name: 'check this step' }).first().click();
  const failed = page.getByTestId('step-check-failed');
  await expect(failed).toContainText('This check found no rows');
  await expect(failed).toContainText('Its SQL and what SQLite answered are below.');
  await expect(failed).not.toContainText('events above');
  const steps = failed.getByTestId('step');
  await expect(steps.first()).toHaveAttribute('data-tool', 'execute_sql');
  await expect(steps.first()).toContainText(BAD);
  await expect(steps.first()).toContainText('no such column: nope');
});

test("after a run the grid shows the answer's rows and SQL, the same as the editor", async ({ page }) => {
  mock = await startMockLlm({ script: fullRun() });
  await useMock(page, mock);
  await openApp(page);
  await page.getByRole('tab', { name: 'SQL', exact: true }).click();
  await runSql(page, 'SELECT 42 AS answer');
  await expect(page.getByTestId('results-status')).toContainText('1 row');
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('final')).toBeVisible();
  await page.getByRole('tab', { name: 'SQL', exact: true }).click();
  await expect(page.getByTestId('result-sql')).toHaveText(SQL);
  await expect(page.getByTestId('result-source')).toContainText('The answer’s rows');
  await expect(page.getByTestId('results-status')).toContainText('3 rows');
  await expect(page.getByTestId('result-changed')).toHaveCount(0);
  await expect(page.locator('.monaco-editor .view-lines')).toContainText("c.country = 'Canada'");
});

test('History runs of the same question show model, rows and verdict where they differ', async ({ page }) => {
  const SQL2 = "SELECT c.first_name FROM customers c WHERE c.country = 'Canada' LIMIT 2";
  const second = fullRun().map((r) => JSON.parse(JSON.stringify(r).replaceAll(JSON.stringify(SQL).slice(1, -1), SQL2)));
  second[4] = { text: 'Two customers; maybe not all of them.\nVerdict: mismatch' };
  mock = await startMockLlm({ script: [...fullRun(), ...second] });
  await useMock(page, mock);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('verdict')).toContainText('matches');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('verdict')).toContainText('may not match');
  await page.getByTestId('history').locator('summary').click();
  const entries = page.getByTestId('history-entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0).locator('mark[data-fact="rows"]')).toHaveText('2 rows');
  await expect(entries.nth(1).locator('mark[data-fact="rows"]')).toHaveText('3 rows');
  await expect(entries.nth(0).locator('mark[data-fact="verdict"]')).toHaveText('✗ may not match');
  await expect(entries.nth(1).locator('mark[data-fact="verdict"]')).toHaveText('✓ matches');
  await expect(entries.nth(0).locator('[data-fact="model"]')).toHaveText('openai · mock-model');
  await expect(entries.nth(0).locator('mark[data-fact="model"]')).toHaveCount(0);
});

test('while paused after the plan, an edited plan is what the agent continues with', async ({ page }) => {
  mock = await startMockLlm({ script: fullRun() });
  await useMock(page, mock);
  await pauseAfterPlan(page);
  await openApp(page);
  await askQuestion(page, 'Which customers live in Canada?');
  await expect(page.getByTestId('plan-waiting')).toBeVisible();
  const plan = page.getByTestId('plan-card');
  await plan.getByRole('button', { name: 'edit' }).click();
  await plan.getByLabel('Sub-question 1', { exact: true }).fill('Customers whose country is Canada, by last name');
  await plan.getByRole('button', { name: 'Continue with this plan' }).click();
  await expect(page.getByTestId('final')).toBeVisible();
  const second = mock.requests.filter((r) => r.path.endsWith('/chat/completions'))[1];
  expect(JSON.stringify(second.messages)).toContain('Customers whose country is Canada, by last name');
});
