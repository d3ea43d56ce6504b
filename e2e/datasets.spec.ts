// Real files from ../shared/datasets, when present (a fresh machine without them skips).
import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openApp, resultRows, runSql } from './support';

const datasets = path.resolve(import.meta.dirname, '../../shared/datasets');
const chinook = path.join(datasets, 'sample_dbs/chinook/Chinook_Sqlite.sqlite');
const spiderConcert = path.join(datasets, 'spider/database/concert_singer/concert_singer.sqlite');

test.describe('benchmark databases', () => {
  test.skip(!existsSync(chinook), `../shared/datasets not found at ${datasets}: skipping the real-data browser tests`);

  test('Chinook opens with its 11 tables, foreign keys and statistics', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('file-input').setInputFiles(chinook);
    await expect(page.getByText('11 tables')).toBeVisible();
    const track = page.locator('li[data-table="Track"]');
    await expect(track).toContainText('3,503');
    await track.locator('.table-item').click();
    await expect(track.locator('li[data-column="AlbumId"] .badge-fk')).toHaveText('→ Album');
    await track.locator('li[data-column="MediaTypeId"] .column-name').click();
    const stats = track.getByTestId('column-stats');
    await expect(stats).toContainText('Distinct');
    await expect(stats.locator('dd ul li')).toHaveCount(5); // five media types, listed with counts
    await runSql(page, 'SELECT count(*) FROM Invoice');
    await expect(resultRows(page).nth(1)).toContainText('412');
  });

  test('a Spider database opens with the schema Spider describes', async ({ page }) => {
    test.skip(!existsSync(spiderConcert), 'Spider databases not present');
    await openApp(page);
    await page.getByTestId('file-input').setInputFiles(spiderConcert);
    for (const t of ['concert', 'singer', 'singer_in_concert', 'stadium'])
      await expect(page.locator(`li[data-table="${t}"]`)).toBeVisible();
    const sic = page.locator('li[data-table="singer_in_concert"]');
    await sic.locator('.table-item').click();
    await expect(sic.locator('li[data-column="concert_ID"] .badge-fk')).toHaveText('→ concert');
    await expect(sic.locator('li[data-column="Singer_ID"] .badge-fk')).toHaveText('→ singer');
  });
});
