// The page on a PostgreSQL server through `dowser serve` (issue 36): the printed link opens the
// database, a question is answered by the mock model with SQL that runs on the server, charted,
// followed up and exported; the link opens once, and a write is refused. Runs on a throw-away
// cluster (scripts/pg-cluster.mjs); skipped without PostgreSQL except on CI.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { findPgBin, startCluster, type Cluster } from '../scripts/pg-cluster.mjs';
import { makeShop, READER } from '../src/test-support/pg-fixtures';
import { startMockLlm, type MockLlm, type RecordedRequest } from './mock-llm/server';
import { askQuestion, asked, resultRows, runSql, useMockModel } from './support';

const noPg = findPgBin() === null && process.env.CI !== 'true';
test.skip(noPg, 'PostgreSQL not installed: `bash scripts/ensure-postgres.sh` installs it');

const SQL: Record<string, string> = {
  'How many customers live in each city?':
    'SELECT "City Name" AS city, count(*) AS customers FROM customers WHERE "City Name" IS NOT NULL GROUP BY 1 ORDER BY 1',
  'and only in Oslo?':
    'SELECT "City Name" AS city, count(*) AS customers FROM customers WHERE "City Name" = \'Oslo\' GROUP BY 1',
};

function model(req: RecordedRequest) {
  const messages = req.messages as Array<{ role: string; content: string }>;
  if (messages[0].content.startsWith('You check whether'))
    return { text: 'Verdict: match\nExplanation: Customers counted by the city they live in.' };
  return { text: '```sql\n' + (SQL[asked(req)] ?? 'SELECT 1') + '\n```' };
}

let cluster: Cluster | undefined;
let serve: ChildProcess | undefined;
let out = '';
let mock: MockLlm | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startCluster();
  const { reader } = await makeShop(cluster);
  const page = `http://127.0.0.1:${process.env.E2E_PORT ?? 4317}/`;
  serve = spawn(process.execPath, ['bin/dowser.mjs', 'serve', '--db', reader, '--port', '0', '--page', page], {
    env: { ...process.env, PGPASSWORD: READER.password, DOWSER_CACHE: 'off' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  serve.stdout!.on('data', (d: Buffer) => (out += d.toString()));
});

test.afterAll(async () => {
  serve?.kill('SIGINT');
  await cluster?.stop();
});

test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** The newest link serve printed (Enter asks it for another). */
async function nextLink(count: number): Promise<string> {
  if (count > 1) serve!.stdin!.write('\n');
  await expect.poll(() => (out.match(/#serve=/g) ?? []).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(count);
  return [...out.matchAll(/http:\/\/\S+#serve=\S+/g)][count - 1][0];
}

test('the page opens a PostgreSQL database through dowser serve, asks, charts, follows up and exports', async ({
  page,
}) => {
  test.setTimeout(120_000);
  mock = await startMockLlm({ script: model });
  await useMockModel(page, mock.url, { mode: 'auto' });
  const link = await nextLink(1);
  await page.goto(link);
  const tab = page.getByRole('button', { name: /^dowser_reader@127\.0\.0\.1:\d+\/shop$/ });
  await expect(tab).toBeVisible();
  await expect(tab).toHaveAttribute('title', /^PostgreSQL \d+\S* through dowser serve/);
  // The token left the address; the page says where the database is.
  expect(page.url()).not.toContain('token=');
  await expect(page.getByTestId('served-info')).toContainText(
    /Connected to dowser_reader@127\.0\.0\.1:\d+\/shop through dowser serve/,
  );
  await expect(page.getByTestId('served-info')).toContainText('PostgreSQL');
  await expect(page.locator('.table-list li').filter({ hasText: 'customers' }).first()).toBeVisible();
  // The demo did not open: the link is what the person came for.
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toHaveCount(0);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: 'test-results/serve-explorer-1366.png' });

  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await askQuestion(page, 'How many customers live in each city?');
  const run = page.getByTestId('run');
  await expect(run.getByTestId('final-rows').locator('tbody tr')).toHaveCount(3);
  await expect(run.getByTestId('final-rows')).toContainText('Oslo');
  // The prompt was written for PostgreSQL, from the server's schema.
  const first = JSON.stringify(mock.requests.find((r) => r.path.endsWith('/chat/completions'))!.messages);
  expect(first).toContain('PostgreSQL');
  expect(first).toContain('City Name');

  // The answer's chart, drawn from the rows the server returned.
  const chart = run.getByTestId('answer-chart-box');
  await expect(chart).toHaveAttribute('aria-busy', 'false');
  await expect(chart.locator('svg rect')).toHaveCount(3);

  for (const [w, h, scheme] of [
    [1366, 768, 'dark'],
    [800, 700, 'light'],
    [800, 700, 'dark'],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/serve-${w}-${scheme}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  await askQuestion(page, 'and only in Oslo?');
  await expect(page.getByTestId('run').getByTestId('final-rows').locator('tbody tr')).toHaveCount(1);
  const followUp = mock.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-2)!;
  expect(JSON.stringify(followUp.messages)).toContain('How many customers live in each city?');

  // The run exports as Markdown (SQL and rows from the server); its SQL opens in the editor and
  // runs there again, on the server, and the rows export as CSV.
  const markdown = page.waitForEvent('download');
  await page.getByTestId('run').getByRole('button', { name: 'Run as Markdown' }).click();
  const md = readFileSync((await (await markdown).path())!, 'utf8');
  expect(md).toContain('WHERE "City Name" = \'Oslo\'');
  // The link's token is the serve session's key: it is in no export.
  expect(md).not.toContain(new URLSearchParams(new URL(link).hash.slice(1)).get('token')!);
  await page.getByTestId('run').getByTestId('final').getByRole('button', { name: 'Open in the SQL editor' }).click();
  await expect(resultRows(page)).toHaveCount(2);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV', exact: true }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8');
  expect(csv.trim().split(/\r?\n/)).toEqual(['city,customers', 'Oslo,10']);

  // A write typed in the editor is refused, readably, and the page goes on.
  await runSql(page, 'DELETE FROM customers');
  await expect(page.getByTestId('query-error')).toContainText(/read/i);
  await runSql(page, 'SELECT count(*) AS n FROM customers');
  await expect(resultRows(page).nth(1)).toContainText('40');
});

test('a serve link opens once; a used one says so and the page stays usable', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('dowser.settings', JSON.stringify({ embeddingDownload: false })));
  const link = await nextLink(2);
  await page.goto(link);
  await expect(page.getByRole('button', { name: /^dowser_reader@/ })).toBeVisible();
  const other = await page.context().newPage();
  await other.goto(link);
  await expect(other.getByTestId('notice-error')).toContainText(/used already/);
  await other.close();
});
