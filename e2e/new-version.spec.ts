// A deploy while the page is open (decision 067): the new build's service worker waits instead of
// taking over, so the open page keeps loading its lazy parts (the SQL editor) from its own build,
// and offers "A new version of Dowser is ready — Reload". A part the server no longer has offers
// Reload, not a "Try again" that cannot work.
import { expect, test, type Page } from '@playwright/test';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApp, resultRows, runSql } from './support';

const dist = path.join(import.meta.dirname, '..', 'dist');

/**
 * A second build, deployed over the first where the preview server serves it: the SQL editor's
 * chunk changed, so it gets a new name, and so does every file naming a renamed one (index.html
 * and sw.js take the new names; index.html a new revision). The first build's copies of the
 * renamed files are removed, as a deploy leaves the server. Returns what puts the first build back.
 */
function deploySecondBuild(): () => void {
  const assets = path.join(dist, 'assets');
  const texts = new Map(
    readdirSync(assets)
      .filter((f) => /\.(m?js|css)$/.test(f))
      .map((f) => [f, readFileSync(path.join(assets, f), 'utf8')]),
  );
  const changed = new Set([...texts.keys()].filter((f) => f.startsWith('SqlEditor-')));
  expect(changed.size).toBe(1);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [f, text] of texts) {
      if (changed.has(f) || ![...changed].some((c) => text.includes(c))) continue;
      changed.add(f);
      grew = true;
    }
  }
  const renamed = (f: string) => f.replace(/\.(m?js|css)$/, '-b.$1');
  const rename = (text: string) => [...changed].reduce((t, f) => t.replaceAll(f, renamed(f)), text);
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const sw = readFileSync(path.join(dist, 'sw.js'), 'utf8');
  const newSw = rename(sw).replace(/(url:"index\.html",revision:")[0-9a-f]+"/, `$1${'b'.repeat(32)}"`);
  expect(newSw).toContain(`revision:"${'b'.repeat(32)}"`);
  for (const f of changed) {
    writeFileSync(path.join(assets, renamed(f)), rename(texts.get(f)!));
    rmSync(path.join(assets, f));
  }
  writeFileSync(path.join(dist, 'index.html'), rename(html));
  writeFileSync(path.join(dist, 'sw.js'), newSw);
  return () => {
    for (const f of changed) {
      writeFileSync(path.join(assets, f), texts.get(f)!);
      rmSync(path.join(assets, renamed(f)), { force: true });
    }
    writeFileSync(path.join(dist, 'index.html'), html);
    writeFileSync(path.join(dist, 'sw.js'), sw);
  };
}

async function controlledByWorker(page: Page) {
  await page.waitForFunction(
    async () => !!(await navigator.serviceWorker.ready) && !!navigator.serviceWorker.controller,
    null,
    { timeout: 120_000 },
  );
}

/** The SQL editor chunks this page has loaded (from the server or its service worker). */
const editorChunks = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name.split('/').pop()!)
      .filter((name) => name.startsWith('SqlEditor-')),
  );

async function sqlEditorWorks(page: Page) {
  await page.getByRole('tab', { name: 'SQL' }).click();
  await expect(page.locator('.monaco-editor').first()).toBeVisible({ timeout: 30_000 });
  await runSql(page, 'SELECT count(*) AS n FROM customers');
  await expect(resultRows(page)).toHaveCount(2);
  await expect(page.getByTestId('panel-error')).toHaveCount(0);
}

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('a new build waits: the open page still opens the SQL editor, and Reload brings the new build', async ({
    page,
    context,
  }) => {
    test.setTimeout(240_000);
    await openApp(page);
    await controlledByWorker(page);
    // A second tab of the first build.
    const other = await context.newPage();
    await openApp(other);
    expect(await editorChunks(page)).toEqual([]);

    const restore = deploySecondBuild();
    try {
      // Browsers look for a new sw.js on navigations; an open page asks here as a later visit would.
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())!.update();
      });
      const notice = page.getByTestId('update-notice');
      await expect(notice).toContainText('A new version of Dowser is ready.', { timeout: 120_000 });
      await expect(other.getByTestId('update-notice')).toBeVisible();

      // The first build's SQL editor is gone from the server; the page's own worker still has it.
      await sqlEditorWorks(page);
      expect(await editorChunks(page)).toEqual([expect.not.stringContaining('-b.js')]);

      // Reload: the new build takes over, and the page comes back with it and with its file.
      await notice.getByRole('button', { name: 'Reload' }).click();
      await expect(page.locator('script[type="module"][src*="-b.js"]')).toHaveCount(1, { timeout: 60_000 });
      await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('update-notice')).toHaveCount(0);
      await sqlEditorWorks(page);
      expect(await editorChunks(page)).toEqual([expect.stringContaining('-b.js')]);

      // The other tab was switched to the new build with it: its old editor chunk is gone, so it
      // says so and offers Reload (decision 067's limit), which brings it the new build too.
      await other.getByRole('tab', { name: 'SQL' }).click();
      const gone = other.getByTestId('panel-error');
      await expect(gone).toContainText('a new version of Dowser was deployed since this page was opened');
      await expect(gone.getByRole('button', { name: 'Try again' })).toHaveCount(0);
      await gone.getByRole('button', { name: 'Reload' }).click();
      await expect(other.locator('script[type="module"][src*="-b.js"]')).toHaveCount(1, { timeout: 60_000 });
      await expect(other.locator('.table-list li').first()).toBeVisible({ timeout: 30_000 });
      await sqlEditorWorks(other);
    } finally {
      restore();
    }
  });
});

test('a part of the page the server no longer has: the panel says a new version was deployed, and Reload works', async ({
  page,
}) => {
  await openApp(page);
  // As after a deploy, with no service worker to keep the first build: its editor chunk is gone.
  const editorChunk = /\/assets\/SqlEditor-[^/]+\.js$/;
  await page.route(editorChunk, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await page.getByRole('tab', { name: 'SQL' }).click();
  const panel = page.getByTestId('panel-error');
  await expect(panel).toContainText(
    'The SQL editor panel could not be loaded: a new version of Dowser was deployed since this page was opened.',
  );
  await expect(panel.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  // The rest of the SQL view stays.
  await expect(page.getByRole('button', { name: 'Run ▶' })).toBeVisible();

  await page.unroute(editorChunk);
  const reloaded = page.waitForEvent('load');
  await panel.getByRole('button', { name: 'Reload' }).click();
  await reloaded;
  await expect(page.locator('.table-list li').first()).toBeVisible({ timeout: 30_000 });
  await sqlEditorWorks(page);
});

test('Monaco gone from the server: the plain SQL editor stays usable and offers Reload', async ({ page }) => {
  await openApp(page);
  await page.route(/\/assets\/monaco-setup-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await page.getByRole('tab', { name: 'SQL' }).click();
  await expect(page.getByRole('alert')).toContainText('The full SQL editor could not be loaded: a new version');
  await expect(page.getByRole('alert').getByRole('button', { name: 'Reload' })).toBeVisible();
  await page.getByRole('textbox', { name: 'SQL editor' }).fill('SELECT count(*) AS n FROM customers');
  await page.getByRole('button', { name: 'Run ▶' }).click();
  await expect(resultRows(page)).toHaveCount(2);
});
