import { expect, test } from '@playwright/test';
import { openApp, resultRows, runSql, uploadFixture } from './support';

const refusals: Array<[string, RegExp]> = [
  ['not-sqlite.db', /not a SQLite database: it looks like a text file/],
  ['empty.sqlite', /empty \(0 bytes\)/],
  ['encrypted.sqlite', /looks encrypted/],
];

for (const [file, message] of refusals) {
  test(`${file} is refused with a clear message and the app keeps working`, async ({ page }) => {
    await openApp(page);
    await uploadFixture(page, file);
    await expect(page.getByTestId('notice-error')).toContainText(message);
    await expect(page.getByRole('button', { name: file, exact: true })).toHaveCount(0);
    await runSql(page, 'SELECT count(*) AS n FROM customers');
    await expect(resultRows(page).nth(1)).toContainText('200');
  });
}

test('a truncated file is reported as cut short, with its size', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'truncated.sqlite');
  await expect(page.getByTestId('notice-error')).toContainText(
    /truncated\.sqlite.*The file is cut short: its header describes \d+ pages/,
  );
});

test('a corrupted file reports the integrity check', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'corrupt.sqlite');
  await expect(
    page
      .getByText(
        /corrupt\.sqlite: (The integrity check found problems|The database is damaged)|Could not open "corrupt\.sqlite"/,
      )
      .first(),
  ).toBeVisible();
});

test('a WAL-mode file without its -wal sidecar opens with a warning', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'wal-mode.sqlite');
  await expect(page.getByTestId('notice-warning')).toContainText('WAL mode');
  await expect(page.getByRole('button', { name: 'wal-mode.sqlite', exact: true })).toBeVisible();
});

test('virtual tables with unknown modules are listed and the rest still works', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'virtual-table.sqlite');
  await expect(page.getByTestId('notice-warning')).toContainText('vec0');
  await expect(page.locator('li[data-table="notes"]')).toBeVisible();
  await runSql(page, 'SELECT count(*) AS n FROM notes');
  await expect(page.getByTestId('results-status')).toContainText('1 row');
});

test('a database without tables says so', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'no-tables.sqlite');
  await expect(page.getByTestId('notice-warning')).toContainText('no tables');
});
