// Conversations in the page (issue 23): follow-up questions that build on the answers before
// them, an earlier turn answered again from an edited plan, and a reload that keeps it all; the
// model is the mock OpenAI-compatible server, answering the newest question of each request.
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm, type RecordedRequest } from './mock-llm/server';
import { askQuestion, asked, openApp, useMockModel } from './support';

const SQL: Record<string, string> = {
  'How many orders are there per status?': 'SELECT status, count(*) AS n FROM orders GROUP BY status',
  'and only the delivered ones?': "SELECT status, count(*) AS n FROM orders WHERE status = 'delivered' GROUP BY status",
  'how many customers placed them?':
    "SELECT count(DISTINCT customer_id) AS customers FROM orders WHERE status = 'delivered'",
};
const REGENERATED = 'SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY n DESC';

function agentModel(req: RecordedRequest) {
  const messages = req.messages as Array<{ role: string; content: string }>;
  if (messages[0].content.startsWith('You check whether'))
    return { text: 'Verdict: match\nExplanation: The counts asked for.' };
  const tools = (req.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
  const question = asked(req);
  // A confirmed (edited) plan: no planning, the answer straight away.
  if (!tools.includes('submit_plan')) return { toolCalls: [{ name: 'done', arguments: { sql: REGENERATED } }] };
  const plan = { sub_questions: [{ text: question, tables: [{ table: 'orders', columns: ['status'] }] }] };
  return {
    text: 'Plan, then the answer.',
    toolCalls: [
      { id: 'p', name: 'submit_plan', arguments: plan },
      { id: 'd', name: 'done', arguments: { sql: SQL[question] } },
    ],
  };
}

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

test('a conversation: two follow-ups, an earlier turn answered again, and a reload that keeps it all', async ({
  page,
}) => {
  mock = await startMockLlm({ script: agentModel });
  await useMockModel(page, mock.url, { mode: 'agent' });
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();

  await askQuestion(page, 'How many orders are there per status?');
  const followUp = page.getByLabel(/Follow up on the answer to/);
  await expect(followUp).toBeChecked();
  await expect(followUp.locator('..')).toContainText('How many orders are there per status?');
  await askQuestion(page, 'and only the delivered ones?');
  await expect(page.getByTestId('run-announcer')).toContainText('Answer ready');
  await askQuestion(page, 'how many customers placed them?');

  // The thread reads top to bottom: two earlier turns, each with its answer and rows, then the current one.
  const turns = page.getByTestId('turn');
  await expect(turns).toHaveCount(2);
  await expect(turns.nth(0).getByTestId('final-sql')).toContainText(SQL['How many orders are there per status?']);
  await expect(turns.nth(1).getByTestId('final-rows').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('run')).toContainText('follow-up 2');
  // The model saw the conversation: the third question came with the first two and their SQL.
  const third = mock.requests.filter((r) => asked(r) === 'how many customers placed them?')[0];
  const sent = JSON.stringify(third.messages);
  expect(sent).toContain('Earlier in this conversation');
  expect(sent).toContain("WHERE status = 'delivered' GROUP BY status");

  // A reload keeps the conversation and its rows.
  await page.reload();
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('turn')).toHaveCount(2);
  await expect(page.getByTestId('turn').nth(0).getByTestId('final-rows').locator('tbody tr')).toHaveCount(5);
  await expect(page.getByTestId('final-sql').last()).toContainText('count(DISTINCT customer_id)');

  // The first turn's plan edited: that turn is answered again, the two after it are kept apart.
  const first = page.getByTestId('turn').nth(0);
  await first.getByTestId('plan-card').getByRole('button', { name: 'edit' }).click();
  await first.getByLabel('Sub-question 1', { exact: true }).fill('Orders per status, most first');
  await first.getByRole('button', { name: 'Regenerate from plan' }).click();
  await expect(page.getByTestId('run')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('turn')).toHaveCount(0);
  await expect(page.getByTestId('final-sql')).toContainText('ORDER BY n DESC');
  const later = page.getByTestId('later-turns');
  await expect(later.getByRole('listitem')).toHaveCount(2);
  await expect(later).toContainText('and only the delivered ones?');

  // After another reload the answered-again turn and the two kept apart are there.
  await page.reload();
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('final-sql')).toContainText('ORDER BY n DESC');
  await expect(page.getByTestId('later-turns').getByRole('listitem')).toHaveCount(2);
  // Asking one again follows up on the new answer.
  await page.getByTestId('later-turns').getByRole('button', { name: 'Ask again' }).first().click();
  await expect(page.getByTestId('turn')).toHaveCount(1);
  await expect(page.getByTestId('run')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('later-turns').getByRole('listitem')).toHaveCount(1);
});

test('the same question asked again is answered again in its place; unticking follow-up starts anew', async ({
  page,
}) => {
  mock = await startMockLlm({ script: agentModel });
  await useMockModel(page, mock.url, { mode: 'agent' });
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();

  await askQuestion(page, 'How many orders are there per status?');
  await askQuestion(page, 'and only the delivered ones?');
  await expect(page.getByTestId('turn')).toHaveCount(1);
  // Asked again, the follow-up is retried with the turn before it, not answered as a follow-up on itself.
  await askQuestion(page, 'and only the delivered ones?');
  await expect(page.getByTestId('turn')).toHaveCount(1);
  await expect(page.getByTestId('run')).toContainText('follow-up 1');
  const answering = (q: string) => mock!.requests.filter((r) => asked(r) === q && r.tools);
  const retried = answering('and only the delivered ones?').at(-1)!;
  expect(JSON.stringify(retried.messages)).toContain('Earlier in this conversation');

  await page.getByLabel(/Follow up on the answer to/).uncheck();
  await askQuestion(page, 'How many orders are there per status?');
  await expect(page.getByTestId('turn')).toHaveCount(0);
  const fresh = answering('How many orders are there per status?').at(-1)!;
  expect(JSON.stringify(fresh.messages)).not.toContain('Earlier in this conversation');
  // Unticking starts one new conversation; the question after it follows up again (issue 38, item 3).
  await expect(page.getByLabel(/Follow up on the answer to/)).toBeChecked();
  await askQuestion(page, 'how many customers placed them?');
  await expect(page.getByTestId('turn')).toHaveCount(1);
  expect(JSON.stringify(answering('how many customers placed them?').at(-1)!.messages)).toContain(
    'Earlier in this conversation',
  );
});
