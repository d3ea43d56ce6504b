// Page helpers shared by the browser tests.
import { expect, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import initSqlJs from 'sql.js';
import path from 'node:path';
import type { RecordedRequest } from './mock-llm/server';

export const fixture = (name: string) => path.join(import.meta.dirname, 'fixtures', name);

/**
 * Before the page loads: the model is an OpenAI-compatible server at `baseUrl` (a mock), with
 * native tool calls; `key` is remembered for it, `privacy` is stored as the privacy settings.
 * Questions are answered by `mode` (default the agent: most mock scripts are an agent's turns).
 */
export async function useMockModel(
  page: Page,
  baseUrl: string,
  options: { model?: string; key?: string; privacy?: object; mode?: 'auto' | 'agent' | 'direct' } = {},
) {
  const mode = options.mode ?? 'agent';
  await page.addInitScript((answerMode) => {
    if (!localStorage.getItem('dowser.settings'))
      localStorage.setItem(
        'dowser.settings',
        JSON.stringify({ version: 2, settings: { embeddingDownload: false, answerMode } }),
      );
  }, mode);
  const model = {
    provider: 'openai',
    preset: 'custom',
    baseUrl,
    model: options.model ?? 'mock-model',
    toolMode: 'native',
  };
  await page.addInitScript(
    ({ model, key, privacy }) => {
      localStorage.setItem('dowser.model', JSON.stringify(model));
      if (key) localStorage.setItem('dowser.model.key', key);
      if (privacy) localStorage.setItem('dowser.privacy', JSON.stringify(privacy));
    },
    { model, key: options.key ?? '', privacy: options.privacy ?? null },
  );
}

/** Waits for the demo database (opened on first visit) to show its tables. */
export async function openApp(page: Page) {
  // Tests never reach the internet: no model download attempts unless a test sets its own settings.
  await page.addInitScript(() => {
    if (!localStorage.getItem('dowser.settings'))
      localStorage.setItem('dowser.settings', JSON.stringify({ embeddingDownload: false }));
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'demo.sqlite', exact: true })).toBeVisible();
  await expect(page.locator('.table-list li').first()).toBeVisible();
}

export async function uploadFixture(page: Page, name: string) {
  await page.getByTestId('file-input').setInputFiles(fixture(name));
}

/** Replaces the editor's text by typing, as a person would. */
export async function setSql(page: Page, sql: string) {
  const tab = page.getByRole('tab', { name: 'SQL', exact: true });
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
}

export async function runSql(page: Page, sql: string) {
  await setSql(page, sql);
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+Enter');
}

/** Drops a file on the page the way a browser does: a real DragEvent with a DataTransfer. */
export async function dropFixture(page: Page, name: string) {
  const bytes = [...readFileSync(fixture(name))];
  await page.evaluate(
    ({ bytes, name }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/octet-stream' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }
    },
    { bytes, name },
  );
}

/** The grid's header row, then its rows (the row of filter boxes under the header left out). */
export function resultRows(page: Page) {
  return page.getByRole('table', { name: 'Query results' }).locator('[role="row"]:not(.grid-filters)');
}

/**
 * A database of `rows` visits (city, a note with random hex) whose value read and index build
 * take seconds in the page, written to a file Chromium reads (issue 26's browser tests).
 */
export async function visitsDb(rows: number): Promise<string> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`CREATE TABLE visits (id INTEGER PRIMARY KEY, city TEXT, note TEXT);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
    INSERT INTO visits SELECT i, CASE i % 3 WHEN 0 THEN 'Oslo' WHEN 1 THEN 'Lima' ELSE 'Pune' END,
      'visit ' || i || ' ' || hex(randomblob(8)) FROM n;`);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'dowser-visits-')), 'visits.sqlite');
  writeFileSync(file, db.export());
  db.close();
  return file;
}

/** The newest question a request asks (the last `Question: "…"` of its first user message). */
export const asked = (req: RecordedRequest) => {
  const user = (req.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user')!.content;
  return [...user.matchAll(/Question: "([^"]*)"/g)].at(-1)?.[1] ?? '';
};

/** Asks in the Ask tab (already shown) and waits for the run to finish. */
export async function askQuestion(page: Page, question: string) {
  await page.getByLabel('Question').fill(question);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('run')).toHaveAttribute('data-status', 'done');
}
