// Issue 35's import cases in the page (items 1, 8, 14): the dialog's "First row" choice on a
// headerless file (set from the evidence, with its reason; the preview follows the choice and the
// import uses it), the encoding shown and changeable, and a 100,000-column file refused before any
// preview is drawn.
import { expect, test } from '@playwright/test';
import { openApp, runSql } from './support';

const CONTACTS = [
  ['Brannoch Velstrade', 'Quimbury', 'tarnwise', 'ollendrake@example.net'],
  ['Isolde Farrowgate', 'Pellinmoor', 'cobaltine', 'wistermane@example.net'],
  ['Corwen Haldane', 'Ashcombe', 'lumivex', 'fernhollow@example.net'],
  ['Maelis Trennick', 'Dovecastle', 'quarrel', 'brightwater@example.net'],
];
const csv = (rows: string[][]) => Buffer.from(rows.map((r) => r.join(',')).join('\n') + '\n');

test('a headerless file: its first row is data, said with the reason; the choice changes the preview and the import', async ({
  page,
}) => {
  await openApp(page);
  await page
    .getByTestId('file-input')
    .setInputFiles([{ name: 'contacts.csv', mimeType: 'text/csv', buffer: csv(CONTACTS) }]);
  const dialog = page.getByRole('dialog', { name: 'Import table files' });
  const firstRow = dialog.getByLabel('First row of contacts.csv');
  await expect(firstRow).toHaveValue('no');
  await expect(dialog.getByTestId('import-header')).toHaveText(
    'Read as data: its values look like the rows below. Nothing of it becomes a column name.',
  );
  const heads = dialog.locator('thead th > div');
  await expect(heads).toHaveText(['column_1', 'column_2', 'column_3', 'column_4']);
  await expect(dialog.locator('tbody tr').first()).toContainText('Brannoch Velstrade');

  await firstRow.selectOption('yes');
  await expect(heads.first()).toHaveText('Brannoch Velstrade');
  await expect(dialog.getByTestId('import-header')).toHaveText('You chose: the first row names the columns.');
  await firstRow.selectOption('no');
  await expect(heads.first()).toHaveText('column_1');

  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('button', { name: 'contacts.csv', exact: true })).toHaveAttribute('aria-current', 'true');
  await runSql(page, "SELECT count(*) AS n, sum(column_1 = 'Brannoch Velstrade') AS first FROM contacts");
  const row = page.getByRole('table', { name: 'Query results' }).locator('.grid-row').first();
  await expect(row).toContainText('4');
  await expect(row).toContainText('1');
});

test('when the evidence cannot tell, the dialog says so and asks the person to choose', async ({ page }) => {
  await openApp(page);
  const even = Buffer.from('City,Name\nLondon,Ada Lovelace\nParis,Grace Hopper\n');
  await page.getByTestId('file-input').setInputFiles([{ name: 'even.csv', mimeType: 'text/csv', buffer: even }]);
  const dialog = page.getByRole('dialog', { name: 'Import table files' });
  await expect(dialog.getByLabel('First row of even.csv')).toHaveValue('no');
  await expect(dialog.getByTestId('import-header')).toContainText(
    'Dowser could not tell whether the first row names the columns',
  );
  await expect(dialog.getByTestId('import-header')).toContainText('choose');
});

test('the encoding is shown, and another can be chosen', async ({ page }) => {
  await openApp(page);
  const text = 'name\tcity\r\nZoë\tKöln\r\n';
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const latin = Buffer.from('name,city\nCafé Müller,Köln\n', 'latin1');
  await page.getByTestId('file-input').setInputFiles([
    { name: 'export.tsv', mimeType: 'text/tab-separated-values', buffer: utf16 },
    { name: 'cafes.csv', mimeType: 'text/csv', buffer: latin },
  ]);
  const dialog = page.getByRole('dialog', { name: 'Import table files' });
  const tsv = dialog.locator('[data-file="export.tsv"]');
  await expect(tsv.getByTestId('import-encoding')).toHaveText('Text read as UTF-16LE (its byte-order mark says so).');
  await expect(tsv.locator('tbody tr').first()).toContainText('Köln');
  const cafes = dialog.locator('[data-file="cafes.csv"]');
  await expect(cafes.getByTestId('import-encoding')).toHaveText(
    'Text read as Windows-1252 (it is no UTF-8, and its bytes look like Windows-1252).',
  );
  await expect(dialog.getByLabel('Encoding of cafes.csv')).toHaveValue('windows-1252');
  await dialog.getByLabel('Encoding of cafes.csv').selectOption('utf-8');
  await expect(cafes.getByTestId('import-encoding')).toContainText(
    'read as UTF-8 (as chosen), but 3 bytes are no UTF-8',
  );
  await expect(cafes.locator('tbody tr').first()).toContainText('Caf\uFFFD');
  await dialog.getByLabel('Encoding of cafes.csv').selectOption('windows-1252');
  await expect(cafes.locator('tbody tr').first()).toContainText('Café Müller');
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('button', { name: 'export.tsv + 1 more', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await runSql(page, 'SELECT t.city, c.name FROM export t JOIN cafes c USING (city)');
  await expect(page.getByRole('table', { name: 'Query results' }).locator('.grid-row').first()).toContainText(
    'Café Müller',
  );
});

test('a 100,000-column file is refused before any preview is drawn; a wide one within the limit draws 50 columns', async ({
  page,
}) => {
  await openApp(page);
  const names = Array.from({ length: 100_000 }, (_, i) => `c${i + 1}`).join(',');
  const values = Array.from({ length: 100_000 }, (_, i) => String(i)).join(',');
  await page
    .getByTestId('file-input')
    .setInputFiles([{ name: 'wide.csv', mimeType: 'text/csv', buffer: Buffer.from(`${names}\n${values}\n`) }]);
  await expect(page.getByTestId('notice-error')).toContainText(
    /Could not import "wide\.csv": wide\.csv has at least [\d,]+ columns; SQLite allows at most 2,000 in a table/,
  );
  await expect(page.getByRole('dialog', { name: 'Import table files' })).toHaveCount(0);
  await expect(page.getByTestId('import-preview')).toHaveCount(0);

  const cols = 1500;
  const head = Array.from({ length: cols }, (_, i) => `m${i + 1}`).join(',');
  const row = Array.from({ length: cols }, (_, i) => String(i)).join(',');
  await page
    .getByTestId('file-input')
    .setInputFiles([{ name: 'broad.csv', mimeType: 'text/csv', buffer: Buffer.from(`${head}\n${row}\n${row}\n`) }]);
  const dialog = page.getByRole('dialog', { name: 'Import table files' });
  await expect(dialog.getByTestId('import-columns-cut')).toHaveText(
    '1,500 columns: the first 50 are shown; the others are imported as detected.',
  );
  await expect(dialog.locator('thead select')).toHaveCount(50);
  await dialog.getByRole('button', { name: 'Import' }).click();
  await runSql(page, 'SELECT m1500 FROM broad LIMIT 1');
  await expect(page.getByRole('table', { name: 'Query results' }).locator('.grid-row').first()).toContainText('1499');
});
