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
  const recent = page.getByRole('dialog', { name: 'Recent files' });
  await expect(recent.getByRole('listitem').first()).toContainText('stored here');
  // Reopened from Recent: the focus goes back to the Recent button, not to the page's body.
  await recent.getByRole('button', { name: 'tiny.sqlite', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Recent' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'tiny.sqlite', exact: true })).toHaveCount(2);
});

test('Ask, SQL, Tools and Evaluate behave as tabs: one Tab stop, arrow keys, Home and End, a panel they control', async ({
  page,
}) => {
  await openApp(page);
  const tabs = page.getByRole('tablist', { name: 'Workspace' }).getByRole('tab');
  const ask = page.getByRole('tab', { name: 'Ask', exact: true });
  await ask.click();
  await expect(tabs.and(page.locator('[tabindex="0"]'))).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  const sql = page.getByRole('tab', { name: 'SQL', exact: true });
  await expect(sql).toHaveAttribute('aria-selected', 'true');
  await expect(sql).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Evaluate', exact: true })).toBeFocused();
  await page.keyboard.press('ArrowRight'); // wraps round
  await expect(ask).toBeFocused();
  await expect(ask).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Home');
  await expect(ask).toBeFocused();
  const panel = page.getByRole('tabpanel');
  await expect(panel).toHaveAttribute('aria-labelledby', (await ask.getAttribute('id'))!);
  await expect(ask).toHaveAttribute('aria-controls', (await panel.getAttribute('id'))!);
  // Tab leaves the tabs for the panel's first control, not the next tab.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role="tabpanel"]'))).toBe(true);
});

test.describe('dark colour scheme', () => {
  test.use({ colorScheme: 'dark' });
  test('the keyboard focus is a 2 px ring that stands out from the page, even on a teal button', async ({ page }) => {
    await openApp(page);
    await page.getByRole('tab', { name: 'Ask', exact: true }).click();
    await page.keyboard.press('ArrowRight'); // focus by keyboard: :focus-visible
    const ring = await page.getByRole('tab', { name: 'SQL', exact: true }).evaluate((el) => {
      const s = getComputedStyle(el);
      return { style: s.outlineStyle, width: s.outlineWidth, colour: s.outlineColor, offset: s.outlineOffset };
    });
    expect(ring).toMatchObject({ style: 'solid', width: '2px', offset: '2px' });
    // Against the dark page (#161816) the ring's colour has at least 3:1 contrast.
    const [r, g, b] = ring.colour.match(/\d+/g)!.map(Number);
    const lum = (c: number) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    const l = 0.2126 * lum(r) + 0.7152 * lum(g) + 0.0722 * lum(b);
    const dark = 0.2126 * lum(0x16) + 0.7152 * lum(0x18) + 0.0722 * lum(0x16);
    expect((l + 0.05) / (dark + 0.05)).toBeGreaterThanOrEqual(3);
  });
});

test("an expanded table's columns are one Tab stop: arrow keys move between columns and their buttons", async ({
  page,
}) => {
  await openApp(page);
  const list = page.locator('.table-list');
  await list.locator('li[data-table="customers"] .table-item').click();
  const columns = list.getByRole('list', { name: 'Columns of customers' });
  await expect(columns).toBeVisible();
  const stops = await columns.evaluate((ul) => ul.querySelectorAll('button:not([tabindex="-1"])').length);
  expect(stops).toBe(1);
  await columns.locator('.column-name').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(columns.locator('.column-name').nth(1)).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(columns.locator('li').nth(1).getByRole('button', { name: 'add note' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(columns.locator('.column-name').last()).toBeFocused();
  // Tab leaves the columns at once.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('ul.columns'))).toBe(false);
});

test('the first visit says what each control does on the page, and the plan editor keeps the focus', async ({
  page,
}) => {
  await openApp(page);
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('own-file-hint')).toContainText('CSV or JSON file anywhere on this page');
  await expect(page.getByRole('button', { name: 'add hints (facts the model should know)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'open a saved run (a .json from Export)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Which tables does it need?' })).toHaveAccessibleDescription(
    /one draft query by the model/,
  );

  // The demo's run, then its plan edited with the keyboard: focus in, Escape out, back on "edit".
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('final')).toBeVisible({ timeout: 30_000 });
  const plan = page.getByTestId('plan-card');
  await plan.getByRole('button', { name: 'edit' }).click();
  await expect(plan.getByLabel('Sub-question 1', { exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('plan-item')).toHaveCount(0);
  await expect(plan.getByRole('button', { name: 'edit' })).toBeFocused();
});
