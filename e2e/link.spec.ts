// Link in the page: chips by the question box and highlighted tables in the explorer; the linker
// alone with the scripted demo, linker + preliminary SQL with a model; the chips start a plan.
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from './mock-llm/server';
import { openApp, useMockModel } from './support';

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const QUESTION = 'Which customers live in Canada?';
const SQL = "SELECT first_name, last_name FROM customers WHERE country = 'Canada' ORDER BY last_name LIMIT 3";

test('without a model: the linker alone, said so, and the explorer highlights the linked table', async ({ page }) => {
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByRole('button', { name: 'Which tables does it need?' }).click();
  const link = page.getByTestId('link');
  await expect(link).toContainText('the structure linker alone');
  await expect(link.locator('[data-linked-table="customers"]')).toBeVisible();
  await expect(page.locator('li[data-table="customers"]')).toHaveClass(/linked/);
  await expect(page.locator('li[data-table="categories"]')).not.toHaveClass(/linked/);
});

test('with a model: the preliminary SQL adds its columns; the chips become the plan of a run', async ({ page }) => {
  mock = await startMockLlm({
    script: [
      { text: `SELECT first_name, last_name, email FROM customers WHERE country = 'Canada'` },
      { toolCalls: [{ id: 'c1', name: 'execute_sql', arguments: { sql: SQL } }] },
      { toolCalls: [{ id: 'c2', name: 'done', arguments: { sql: SQL } }] },
      { text: 'Explanation: Three customers who live in Canada.\nVerdict: match' },
    ],
  });
  await useMockModel(page, mock.url);
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill(QUESTION);
  await page.getByRole('button', { name: 'Which tables does it need?' }).click();
  const link = page.getByTestId('link');
  const customers = link.locator('[data-linked-table="customers"]');
  await expect(customers).toContainText('email');
  await expect(customers).toContainText('country');
  await expect(link).toContainText('Preliminary SQL');
  // One Direct call: the schema lines and the question, no tools.
  expect(mock.requests).toHaveLength(1);
  expect(mock.requests[0].tools).toBeUndefined();
  expect(JSON.stringify(mock.requests[0].messages)).toContain('### Question:');
  await page.locator('li[data-table="customers"] .table-item').click();
  await expect(page.locator('li[data-table="customers"] li[data-column="email"]')).toHaveClass(/linked/);
  await page.screenshot({ path: 'reports/link-chips.png' });

  // Take email off, then ask with the chips as the plan: the run starts from it, no re-planning.
  await link.getByRole('button', { name: 'Remove customers.email' }).click();
  await expect(customers).not.toContainText('email');
  await link.getByRole('button', { name: 'Ask with these as the plan' }).click();
  await expect(page.getByTestId('final')).toBeVisible();
  await expect(page.getByTestId('plan-card')).toContainText('customers.country');
  await expect(page.getByTestId('plan-card')).not.toContainText('customers.email');
  const tools = mock.requests[1].tools as Array<{ function: { name: string } }>;
  expect(tools.map((t) => t.function.name)).not.toContain('submit_plan');
});
