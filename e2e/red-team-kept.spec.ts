// Red team, issue 35, item 3, in the page: a file with the same size, modification time and
// first 64 KiB as one whose indexes were kept (`cp -p`, `touch -r`, an archive) was given them:
// its searches answered with the other file's values, "kept from the last opening of this file".
// The database worker now reads the file through for its checksum before it uses kept indexes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openApp, visitsDb } from './support';

/** `file` with one city changed past the first 64 KiB, under the same name, size and time. */
function twinOf(file: string): string {
  const bytes = readFileSync(file);
  const at = bytes.lastIndexOf(Buffer.from('Oslo'));
  if (at < 64 * 1024) throw new Error('fixture: no city past the first 64 KiB');
  bytes.write('Olso', at, 'latin1');
  const twin = path.join(mkdtempSync(path.join(tmpdir(), 'dowser-visits-twin-')), 'visits.sqlite');
  writeFileSync(twin, bytes);
  execFileSync('touch', ['-r', file, twin]);
  return twin;
}

async function openAndIndex(page: Page, file: string) {
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByRole('button', { name: 'visits.sqlite', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await page.getByRole('tab', { name: 'Tools', exact: true }).click();
  const status = page.getByTestId('index-status');
  await expect(status).toHaveAttribute('data-status', 'ready', { timeout: 180_000 });
  return status;
}

const keptCount = (page: Page) =>
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
  );

test('item 3: a twin of a file whose indexes were kept gets its own, not the other file’s', async ({ page }) => {
  test.setTimeout(420_000);
  const file = await visitsDb(1_000_000);
  const twin = twinOf(file);
  await openApp(page);
  await expect(await openAndIndex(page, file)).toContainText('built in');
  await expect.poll(() => keptCount(page), { timeout: 60_000 }).toBeGreaterThan(0);

  await page.reload();
  const status = await openAndIndex(page, twin);
  await expect(status).toContainText('built in');
  await expect(status).not.toContainText('kept from the last opening');
  // Its own value is found: the index is the twin's.
  await page.getByRole('tab', { name: 'Search values' }).click();
  await page.getByLabel('Value', { exact: true }).fill('Olso');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByTestId('observation')).toContainText('"Olso" in visits.city');
});
