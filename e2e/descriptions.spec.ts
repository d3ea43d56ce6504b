import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openApp, uploadFixture } from './support';

const HEADER = 'original_column_name,column_name,column_description,data_format,value_description';
let dir: string;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'dowser-descriptions-'));
  // As BIRD ships some of its files: UTF-8 with a byte-order mark and CRLF line ends.
  const pets = [
    HEADER,
    'id,,,integer,',
    'owner_id,owner id,the person who owns the pet,integer,',
    'species,,"the kind of animal, e.g. dog or cat",text,',
  ].join('\r\n');
  writeFileSync(
    path.join(dir, 'pets.csv'),
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${pets}\r\n`, 'utf8')]),
  );
  writeFileSync(path.join(dir, 'vets.csv'), `${HEADER}\r\nname,,the vet's name,text,\r\n`);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function openTiny(page: Page) {
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('li[data-table="pets"]')).toBeVisible();
}

async function showTable(page: Page, table: string) {
  const item = page.locator(`li[data-table="${table}"]`);
  const toggle = item.locator('.table-item');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  return item;
}

async function searchColumns(page: Page, phrase: string) {
  await page.getByLabel('Phrase').fill(phrase);
  await page.getByRole('button', { name: 'Run' }).click();
  return page.getByTestId('tool-output').locator('tbody tr').first();
}

test('imported descriptions and notes show in the explorer, feed column search and survive a reload', async ({
  page,
}) => {
  await openApp(page);
  await openTiny(page);

  await page.getByTestId('descriptions-input').setInputFiles([path.join(dir, 'pets.csv'), path.join(dir, 'vets.csv')]);
  const notice = page.getByTestId('notice-warning').filter({ hasText: 'Descriptions imported' });
  await expect(notice).toContainText('Descriptions imported for 2 columns of 1 table.');
  await expect(notice).toContainText('vets.csv (no table named "vets" in this database)');

  const pets = await showTable(page, 'pets');
  await expect(pets.locator('li[data-column="species"] .col-desc')).toHaveText('the kind of animal, e.g. dog or cat');
  await expect(pets.locator('li[data-column="owner_id"] .col-desc')).toHaveText('the person who owns the pet');

  const city = (await showTable(page, 'people')).locator('li[data-column="city"]');
  await city.getByRole('button', { name: 'add note' }).click();
  await city.getByLabel('Note on city').fill('home town');
  await page.keyboard.press('Control+Enter');
  await expect(city.locator('.col-note')).toContainText('home town');
  await expect(city.getByRole('button', { name: 'edit note' })).toBeVisible();

  // Escape leaves a note as it was.
  await city.getByRole('button', { name: 'edit note' }).click();
  await city.getByLabel('Note on city').fill('something else');
  await page.keyboard.press('Escape');
  await expect(city.locator('.col-note')).toContainText('home town');

  await page.getByRole('tab', { name: 'Tools' }).click();
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('index-status')).toContainText('(3 described)');
  await expect(await searchColumns(page, 'kind of animal')).toContainText('pets.species');
  await expect(page.getByTestId('observation')).toContainText('about "the kind of animal');

  // A note written once the indexes exist reaches them too (the cheap update in the worker).
  const petName = (await showTable(page, 'pets')).locator('li[data-column="name"]');
  await petName.getByRole('button', { name: 'add note' }).click();
  await petName.getByLabel('Note on name').fill('nickname the owner calls it by');
  await petName.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('index-status')).toContainText('(4 described)');
  await expect(await searchColumns(page, 'nickname')).toContainText('pets.name');
  await expect(page.getByTestId('observation')).toContainText('about "nickname the owner calls it by"');

  await page.reload();
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible();
  await openTiny(page);
  const cityAgain = (await showTable(page, 'people')).locator('li[data-column="city"]');
  await expect(cityAgain.locator('.col-note')).toContainText('home town');
  await expect((await showTable(page, 'pets')).locator('li[data-column="species"] .col-desc')).toHaveText(
    'the kind of animal, e.g. dog or cat',
  );
});
