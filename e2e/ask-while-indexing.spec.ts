// Asking while the indexes are built (issue 26), in the page: a question on a database whose
// value read takes seconds goes out after at most a second, with each table's first rows (the
// request says so), and the answer's SQL runs against the whole file.
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from './mock-llm/server';
import { openApp, useMockModel, visitsDb } from './support';

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Long enough for the run's own query time limit and model waits to end it first. */
const RUN_ENDS_WITHIN_MS = 240_000;

test('a question during the index build goes out with the first rows of each table, and is answered', async ({
  page,
}) => {
  test.setTimeout(RUN_ENDS_WITHIN_MS + 60_000);
  const sql = "SELECT count(*) AS n FROM visits WHERE city = 'Oslo'";
  mock = await startMockLlm({
    script: [{ text: '```sql\n' + sql + '\n```' }, { text: 'Verdict: match\nExplanation: Visits in Oslo.' }],
  });
  await useMockModel(page, mock.url, { mode: 'auto' });
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(await visitsDb(2_500_000));
  await expect(page.getByRole('button', { name: 'visits.sqlite', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill('How many visits were in Oslo?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  // The count runs on the whole file while the index build reads it: on a busy machine that takes
  // longer than any fixed wait, so the test waits for the run to end (its own limits end it).
  const run = page.getByTestId('run');
  await expect(run).toHaveAttribute('data-status', /^(done|failed)$/, { timeout: RUN_ENDS_WITHIN_MS });
  await expect(run).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('final-rows').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('final-rows')).toContainText('833,333');
  const first = JSON.stringify(mock.requests.filter((r) => r.path.endsWith('/chat/completions'))[0].messages);
  expect(first).toContain('first 10000 rows of each table');
});

test('the agent runs its SQL while the indexes are still being built, instead of waiting for them (issue 38)', async ({
  page,
}) => {
  test.setTimeout(RUN_ENDS_WITHIN_MS + 60_000);
  const sql = 'SELECT count(*) AS n FROM visits WHERE id % 3 = 0';
  mock = await startMockLlm({
    script: [
      {
        text: 'I will plan first.',
        toolCalls: [
          {
            name: 'submit_plan',
            arguments: {
              sub_questions: [
                {
                  text: 'How many visits have an id divisible by three?',
                  tables: [{ table: 'visits', columns: ['id'] }],
                },
              ],
            },
          },
        ],
      },
      { text: 'Count them.', toolCalls: [{ name: 'execute_sql', arguments: { sql } }] },
      { text: 'That answers it.', toolCalls: [{ name: 'done', arguments: { sql } }] },
      { text: 'It counts the visits whose id is divisible by three.\nVerdict: match' },
    ],
  });
  await useMockModel(page, mock.url, { mode: 'agent' });
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(await visitsDb(2_500_000));
  await expect(page.getByRole('button', { name: 'visits.sqlite', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill('How many visits have an id divisible by three?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const run = page.getByTestId('run');
  await expect(run).toHaveAttribute('data-status', /^(done|failed)$/, { timeout: RUN_ENDS_WITHIN_MS });
  await expect(run).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('final-rows')).toContainText('833,333');
  // The build reads 2.5 million notes: it is still under way when the answer is in.
  await page.getByRole('tab', { name: 'Tools', exact: true }).click();
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-status', 'building');
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-status', 'ready', {
    timeout: RUN_ENDS_WITHIN_MS,
  });
});
