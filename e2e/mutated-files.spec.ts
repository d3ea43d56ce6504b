// 20 damaged database files in the page (issue 11, "fuzzing kept as tests"): one of each kind of
// damage the generator makes (src/test-support/mutate-db.ts). Each must end in an open database
// (explorer, starter query) or a readable notice; the page never crashes, throws or hangs, and
// works on afterwards.

import { expect, test } from '@playwright/test';
import { fuzzBaseDb, mutants } from '../src/test-support/mutate-db';
import { openApp, resultRows, runSql } from './support';

test('20 mutated files: each opens or is refused readably, and the page keeps working', async ({ page }) => {
  test.setTimeout(240_000);
  const files = mutants(await fuzzBaseDb(), 20);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('crash', () => problems.push('the page crashed'));
  await openApp(page);
  const outcomes: Record<string, number> = {};
  for (const f of files) {
    const name = `${f.name}.sqlite`;
    await page
      .getByTestId('file-input')
      .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(f.bytes) });
    const ready = page.locator('.db-tab[data-status="ready"]').filter({ hasText: name });
    const refused = page.getByTestId('notice-error').filter({ hasText: `Could not open "${name}"` });
    await expect(ready.or(refused)).toBeVisible({ timeout: 30_000 });
    if (await refused.isVisible()) {
      outcomes.refused = (outcomes.refused ?? 0) + 1;
      await expect(refused).toContainText(/: \S/);
      await refused.getByRole('button', { name: 'Dismiss' }).click();
      continue;
    }
    // Opened: the explorer shows its tables or says why the schema cannot be read.
    await expect(
      page
        .locator('.table-list li')
        .first()
        .or(page.getByText(/The schema could not be read: \S|This database has no tables/)),
    ).toBeVisible({ timeout: 30_000 });
    outcomes.opened = (outcomes.opened ?? 0) + 1;
    await page.getByRole('button', { name: `Close ${name}` }).click();
  }
  expect(problems).toEqual([]);
  expect(outcomes.opened).toBeGreaterThan(3);
  expect(outcomes.refused).toBeGreaterThan(3);
  await page.getByRole('button', { name: 'demo.sqlite', exact: true }).click();
  await runSql(page, 'SELECT count(*) AS n FROM customers');
  await expect(resultRows(page).nth(1)).toContainText('200');
});
