// A SQLite file read from the file as needed (issue 26): the page's database worker reads the
// dropped File's pages with FileReaderSync through wa-sqlite's read-only VFS, loaded only then,
// under the page's content security policy. The database info says which way it was read.
import { expect, test } from '@playwright/test';
import { openApp, resultRows, runSql, uploadFixture } from './support';

test('with "always read from the file", a dropped database is read in place, queried, damaged ones refused', async ({
  page,
}) => {
  await page.addInitScript(() =>
    localStorage.setItem(
      'dowser.settings',
      JSON.stringify({ version: 2, settings: { embeddingDownload: false, readDatabases: 'file' } }),
    ),
  );
  const wasm: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.wasm')) wasm.push(r.url());
  });
  await openApp(page);
  await uploadFixture(page, 'tricky.sqlite');
  await expect(page.getByRole('button', { name: 'tricky.sqlite', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  const info = page.getByTestId('db-info');
  await expect(info).toContainText('read-only, read from the file as needed');
  await expect(info.locator('[data-read-from]')).toHaveAttribute('data-read-from', 'file');
  expect(wasm.some((u) => /wa-sqlite/.test(u))).toBe(true);

  await runSql(page, "SELECT count(*) AS n, sum(typeof(name) = 'text') FROM sqlite_schema");
  await expect(page.getByTestId('grid-count')).toHaveText('1 row');
  await expect(resultRows(page).nth(1)).not.toContainText('error');

  await runSql(page, 'DROP TABLE IF EXISTS nothing_here');
  await expect(page.getByText(/Only reading is allowed/).first()).toBeVisible();

  await uploadFixture(page, 'truncated.sqlite');
  await expect(page.getByTestId('notice-error').last()).toContainText(/cut short|damaged/);
});

test('by default a small database is copied into memory and says so', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'demo.sqlite', exact: true }).click();
  await expect(page.getByTestId('db-info')).toContainText('read-only copy in memory');
});
