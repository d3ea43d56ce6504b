// Issue 11, items 5, 9, 10 and 12 in the page: text from a database or a model is shown with its
// control and bidi characters visible, CSV downloads protect against spreadsheet formulas (said
// beside the button), Markdown exports render as text, and no key reaches history or exports.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { marked } from 'marked';
import initSqlJs from 'sql.js';
import { startMockLlm, type MockLlm } from './mock-llm/server';
import { openApp, runSql, useMockModel } from './support';

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function spoofDb(): Promise<Buffer> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`CREATE TABLE "RTL\u202eexe.txt" ("note\u2028x" TEXT, code TEXT);
          INSERT INTO "RTL\u202eexe.txt" VALUES ('osc\x1b]0;owned\x07 bidi\u202eevil zw\u200bx', 'Alpha');`);
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

test('control and bidi characters show as ⟨U+…⟩ in the explorer, the grid and tool output', async ({ page }) => {
  await openApp(page);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'spoof.sqlite', mimeType: 'application/octet-stream', buffer: await spoofDb() });
  const table = page.locator('.table-list li').filter({ hasText: 'RTL' });
  await expect(table.locator('.table-name')).toHaveText('RTL⟨U+202E⟩exe.txt');
  await table.locator('.table-item').click();
  await expect(table).toContainText('note⟨U+2028⟩x');
  await table.getByRole('button', { name: 'Preview rows' }).click();
  await page.getByRole('tab', { name: 'SQL', exact: true }).click();
  const grid = page.getByRole('table', { name: 'Query results' });
  await expect(grid).toContainText('osc⟨U+001B⟩]0;owned⟨U+0007⟩ bidi⟨U+202E⟩evil zw⟨U+200B⟩x');
  await expect(grid).toContainText('note⟨U+2028⟩x');
  for (const text of [await page.locator('.sidebar').innerText(), await grid.innerText()])
    expect(text).not.toMatch(RAW);

  await page.getByRole('tab', { name: 'Tools' }).click();
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Search values' }).click();
  await page.getByLabel('Value', { exact: true }).fill('owned');
  await page.getByRole('button', { name: 'Run' }).click();
  const out = page.getByTestId('tool-output');
  await expect(out).toContainText('⟨U+202E⟩');
  expect(await out.innerText()).not.toMatch(RAW);
});

async function downloadCsv(page: Page): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV', exact: true }).click();
  return readFileSync((await (await download).path())!, 'utf8');
}

test('CSV download protects against spreadsheet formulas by default, and says so beside the button', async ({
  page,
}) => {
  await openApp(page);
  await runSql(
    page,
    "SELECT '=HYPERLINK(\"http://x.test\",\"a\")' AS f, -5 AS n, '@SUM(1)' AS a, '+1' AS p, 'plain' AS t",
  );
  const protect = page.getByLabel('protect against spreadsheet formulas');
  await expect(protect).toBeChecked();
  const safe = await downloadCsv(page);
  expect(safe).toBe('f,n,a,p,t\r\n"\'=HYPERLINK(""http://x.test"",""a"")",-5,\'@SUM(1),\'+1,plain\r\n');
  await protect.uncheck();
  const exact = await downloadCsv(page);
  expect(exact).toBe('f,n,a,p,t\r\n"=HYPERLINK(""http://x.test"",""a"")",-5,@SUM(1),+1,plain\r\n');
  // The choice is kept.
  await page.reload();
  await runSql(page, 'SELECT 1');
  await expect(page.getByLabel('protect against spreadsheet formulas')).not.toBeChecked();
});

const KEY = 'sk-proj-Q7vX2mPz9LkT4wRb8NcY3hJd6FsA1gUe';
const fragments = (text: string) => {
  const out: string[] = [];
  for (let i = 0; i + 6 <= KEY.length; i++) if (text.includes(KEY.slice(i, i + 6))) out.push(KEY.slice(i, i + 6));
  return out;
};

test('a key echoed by the model or the server never reaches history or exports; Markdown renders as text', async ({
  page,
}) => {
  const PLAN = {
    sub_questions: [{ text: '<img src=x onerror=alert(1)>', tables: [{ table: 'customers', columns: ['country'] }] }],
  };
  mock = await startMockLlm({
    script: [
      // A reply that repeats the key without its prefix, and links that would run script.
      {
        text: `Noted ${KEY.slice(8)} [click](javascript:alert(2)) <script>alert(3)</script>`,
        chunkSize: 3,
        toolCalls: [{ name: 'submit_plan', arguments: PLAN }],
      },
      // A 400 whose body echoes the key's last 12 characters.
      { error: { status: 400, body: { error: { message: `Invalid key ...${KEY.slice(-12)} <b>bold</b>` } } } },
    ],
  });
  await useMockModel(page, mock.url, { model: 'm', key: KEY });
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByLabel('Question').fill('Which customers <svg onload=alert(4)> live in Canada?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const run = page.getByTestId('run');
  await expect(run).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
  expect(mock.requests[0].headers.authorization).toBe('[present]');
  // A keyed server's message that holds the key is not quoted at all (decision 070).
  await expect(page.getByTestId('run-error')).toContainText('message is not shown');
  await expect(run).toContainText('Noted [redacted]');
  expect(fragments(await run.innerText())).toEqual([]);

  const files: string[] = [];
  for (const name of ['Run as JSON', 'Run as Markdown']) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name }).click();
    files.push(readFileSync((await (await download).path())!, 'utf8'));
  }
  const history = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open('dowser-runs');
        open.onsuccess = () => {
          const get = open.result.transaction('runs').objectStore('runs').get('runs:demo.sqlite');
          get.onsuccess = () => resolve(JSON.stringify(get.result));
        };
      }),
  );
  for (const text of [...files, history]) expect(fragments(text)).toEqual([]);
  expect(history).toContain('[redacted]');

  const html = marked.parse(files[1], { async: false });
  expect(html).not.toMatch(/<(script|img|svg|a|b)\b/i);
  expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  expect(html).toContain('&lt;svg onload=alert(4)&gt;');
});
