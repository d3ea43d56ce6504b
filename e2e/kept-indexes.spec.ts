// Indexes kept between visits (issue 26), in the page: a file whose index build takes seconds
// is opened, its indexes built and kept in IndexedDB by the database worker; after a reload the
// same file gets them back without a build, until the person forgets them in Settings.
import { expect, test, type Page } from '@playwright/test';
import { openApp, visitsDb } from './support';

async function openAndIndex(page: Page, file: string) {
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByRole('button', { name: 'visits.sqlite', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await page.getByRole('tab', { name: 'Tools', exact: true }).click();
  const status = page.getByTestId('index-status');
  await expect(status).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  return status;
}

test('a file opened again after a reload gets its kept indexes; Forget removes them', async ({ page }) => {
  test.setTimeout(300_000);
  const file = await visitsDb(1_000_000);
  await openApp(page);
  await expect(await openAndIndex(page, file)).toContainText('built in');
  // The snapshot is written after the build, without making anyone wait: give it the time.
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const open = indexedDB.open('dowser-indexes');
              open.onsuccess = () => {
                const db = open.result;
                if (!db.objectStoreNames.contains('snapshots')) return resolve(0);
                const count = db.transaction('snapshots').objectStore('snapshots').count();
                count.onsuccess = () => resolve(count.result);
              };
              open.onerror = () => resolve(0);
            }),
        ),
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);

  await page.reload();
  await expect(await openAndIndex(page, file)).toContainText('kept from the last opening of this file');
  // The kept indexes answer a search as built ones do.
  await page.getByRole('tab', { name: 'Search values' }).click();
  await page.getByLabel('Value', { exact: true }).fill('Olso');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByTestId('observation')).toContainText('"Oslo" in visits.city');

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Forget kept indexes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The kept indexes were removed.' })).toBeVisible();
  await page.reload();
  await expect(await openAndIndex(page, file)).toContainText('built in');
});
