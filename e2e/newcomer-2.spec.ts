// Issue 25, the page as a newcomer meets it (round two): each thing that broke, as a test that
// failed on the page before the fix.
import { expect, test } from '@playwright/test';
import { openApp, uploadFixture } from './support';

const KEY = 'sk-e2e-kept-over-reload-0123456789';

test('a reload for a new server keeps the open files, the one looked at, and a key kept only in memory', async ({
  page,
}) => {
  await openApp(page);
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toBeVisible();
  await expect(page.getByTestId('no-model-guide')).toBeVisible();
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Provider').selectOption('openai');
  // One place sets the model: the guide's own fields go once Settings chose one.
  await expect(page.getByTestId('no-model-guide')).toBeHidden();
  await page.getByLabel('Preset').selectOption('custom');
  // Custom starts empty: the previous preset's server is not the person's.
  await expect(page.getByLabel('Base URL')).toHaveValue('');
  await page.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await page.getByLabel('Model name').fill('local-model');
  await page.getByLabel('API key').fill(KEY);
  await expect(page.getByLabel('not kept: only while this page is open (forgotten on reload)')).toBeChecked();
  const note = page.getByTestId('reload-note');
  await expect(note).toContainText('open files and key are kept');
  await note.getByRole('button', { name: 'Reload' }).click();

  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toHaveAttribute('aria-current', 'true');
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:9/v1');
  await expect(page.getByLabel('API key')).toHaveValue(KEY);
  await expect(page.getByTestId('reload-note')).toBeHidden();
  // The key is carried once: a second, ordinary reload forgets it, as "not kept" says.
  await page.reload();
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('API key')).toHaveValue('');
});

test('Settings scrolls inside itself in a short window; the page does not move', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 700 });
  await openApp(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const box = (await dialog.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(700);
  const last = dialog.getByRole('checkbox').last();
  await last.focus();
  await expect(last).toBeInViewport();
  expect(await page.evaluate(() => [window.scrollY, document.scrollingElement!.scrollTop])).toEqual([0, 0]);
  await expect(page.getByRole('button', { name: 'Settings' })).toBeInViewport();
});

test('Recent reads as words, and "Remember opened files" keeps the file already open', async ({ page }) => {
  await openApp(page);
  await uploadFixture(page, 'tiny.sqlite');
  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Recent' }).click();
  const entry = page.getByRole('dialog', { name: 'Recent files' }).getByRole('listitem').first();
  await expect(entry).toContainText('name only: pick the file again forget');
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel(/Remember opened files on this device/).check();
  await page.getByRole('button', { name: 'Recent' }).click();
  await expect(page.getByRole('dialog', { name: 'Recent files' }).getByRole('listitem').first()).toContainText(
    'stored here',
  );
});
