// axe-core over the page's main states, in the light and the dark colour scheme: no violations.
// (WCAG 2.1 A and AA rules, colour contrast included, plus axe's best practices.)
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm } from './mock-llm/server';
import { openApp, runSql, useMockModel } from './support';

async function noViolations(page: Page, state: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const found = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')} ${n.failureSummary ?? ''}`).join('\n')}`,
  );
  expect(found, `axe violations in "${state}"`).toEqual([]);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} colour scheme`, () => {
    test.use({ colorScheme });

    test('first visit, a finished run and the plan editor have no axe violations', async ({ page }) => {
      await openApp(page);
      await expect(page.getByTestId('demo-note')).toBeVisible();
      // The page follows the scheme: the dark one has a dark background, the light one a light one.
      const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      expect(background).toBe(colorScheme === 'dark' ? 'rgb(22, 24, 22)' : 'rgb(247, 247, 245)');
      await noViolations(page, 'first visit');

      await page.getByRole('button', { name: 'Ask', exact: true }).click();
      await expect(page.getByTestId('final')).toBeVisible();
      await expect(page.getByTestId('run')).toHaveAttribute('data-status', 'done');
      await noViolations(page, 'finished run');

      await page.getByTestId('plan-card').getByRole('button', { name: 'edit' }).click();
      await expect(page.getByTestId('plan-card').getByRole('textbox').first()).toBeVisible();
      await noViolations(page, 'plan editor');
    });

    test('an Auto run (its path, the SQL it ran, what was sent back, the answer) and a follow-up have no axe violations', async ({
      page,
    }) => {
      const sql = (country: string) =>
        '```sql\nSELECT first_name FROM customers WHERE country = ' + `'${country}'` + ' LIMIT 3\n```';
      const mock = await startMockLlm({
        script: [
          { text: sql('Kanada') },
          { text: sql('Canada') },
          { text: 'Verdict: match\nExplanation: Three customers who live in Canada.' },
          { text: sql('Canada').replace('LIMIT 3', 'LIMIT 2') },
          { text: 'Verdict: match\nExplanation: Two of them.' },
        ],
      });
      try {
        await useMockModel(page, mock.url, { mode: 'auto' });
        await openApp(page);
        await page.getByRole('tab', { name: 'Ask', exact: true }).click();
        await page.getByLabel('Question').fill('Three customers in Canada?');
        await page.getByRole('button', { name: 'Ask', exact: true }).click();
        await expect(page.getByTestId('final')).toBeVisible();
        await expect(page.getByTestId('routes')).toBeVisible();
        await noViolations(page, 'Auto run');

        // A follow-up: the earlier turn reads above the current one.
        await page.getByLabel('Question').fill('and only two of them?');
        await page.getByRole('button', { name: 'Ask', exact: true }).click();
        await expect(page.getByTestId('turn-run')).toHaveCount(1);
        await expect(page.getByTestId('run')).toHaveAttribute('data-status', 'done');
        await noViolations(page, 'conversation');
      } finally {
        await mock.close();
      }
    });

    test('the SQL tab with results, Tools, Settings and column statistics have no axe violations', async ({ page }) => {
      await openApp(page);
      await runSql(page, "SELECT first_name, country, 'text' AS s FROM customers LIMIT 20");
      await expect(page.getByRole('table', { name: 'Query results' }).getByRole('row').nth(1)).toBeVisible();
      await noViolations(page, 'SQL tab with results');
      // The editor's SQL string colour on its background: at least 4.5:1 (Monaco's own red is 3.99:1).
      const ratio = await page.locator('.monaco-editor .view-line span span', { hasText: "'text'" }).evaluate((el) => {
        const rgb = (c: string) =>
          c
            .match(/\d+(\.\d+)?/g)!
            .slice(0, 3)
            .map(Number);
        const lum = (c: string) => {
          const [r, g, b] = rgb(c).map((v) => {
            const x = v / 255;
            return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const fg = lum(getComputedStyle(el).color);
        const bg = lum(getComputedStyle(el.closest('.monaco-editor-background, .monaco-editor')!).backgroundColor);
        return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      });
      expect(ratio).toBeGreaterThanOrEqual(4.5);

      // The grid sorted and filtered, then the same rows as a chart.
      await page.getByRole('button', { name: 'Sort by country' }).click();
      await page.getByLabel('Filter country').fill('a');
      await noViolations(page, 'sorted and filtered grid');
      await runSql(page, 'SELECT country, count(*) AS customers FROM customers GROUP BY country');
      await page.getByRole('button', { name: 'Chart', exact: true }).click();
      await expect(page.getByTestId('chart')).toHaveAttribute('aria-busy', 'false');
      await noViolations(page, 'chart');

      await page.getByRole('tab', { name: 'Tools' }).click();
      await expect(page.locator('.tools-panel')).toBeVisible();
      await noViolations(page, 'Tools');

      await page.getByRole('button', { name: 'Settings' }).click();
      await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
      await noViolations(page, 'Settings');
      await page.keyboard.press('Escape');

      await page.locator('.table-list li[data-table="customers"] > .table-item').click();
      await page.locator('li[data-column="country"] .column-name').click();
      await expect(page.getByTestId('column-stats')).toBeVisible();
      await noViolations(page, 'column statistics');
    });
  });
}
