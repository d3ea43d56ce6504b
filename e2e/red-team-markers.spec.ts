// The page half of round four's marker test (issue 35; the CLI half is
// src/cli/red-team/markers.test.ts, whose fixtures this reuses): a SQLite database and the same
// data dropped as a CSV file, 32 made-up marker words, and a mock model that tries to draw them out
// (SQL whose SQLite errors quote cells, whole-table queries, value lookups near a marker). Every
// task of the page that talks to a model runs in one page per level and data kind, and under
// schema only and matches only no request body the server receives holds a marker. The server is
// reached under a cloud-looking host name, so the level stored for it is the one that applies. A
// page at full runs the same tasks and shows the markers do reach the server (a leak would be seen);
// Link and Optimize send none even there (their prompts hold the schema, the question or SQL and
// the query plan, and nothing they run goes back), so for them the test shows only that they go out
// through the gate. Last, a turn at full and the level lowered in Settings: a step check of its plan
// and a follow-up on it, the editor tasks on its SQL and Regenerate from plan send none of what the
// model wrote at full.
import { expect, test, type Page } from '@playwright/test';
import { buildDb } from '../src/test-support/build-db';
import {
  AGENT_REPLIES,
  ALL_ROWS_SQL,
  ATTACKS,
  attacker,
  bodiesOf,
  COUNT_SQL,
  DONE,
  EXPRESSION_SQL,
  FOLLOW_UP,
  MARKERS,
  markersIn,
  MEMBERS,
  MEMBERS_CSV,
  MEMBERS_SQL,
  QUESTION,
  sqlReply,
  toolCall,
} from '../src/cli/red-team/marker-fixtures';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { startMockLlm, type MockLlm, type MockReply, type RecordedRequest } from './mock-llm/server';
import { openApp, setSql, useMockModel } from './support';

const CLOUD_HOST = 'llm.dowser-markers.test';

test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${CLOUD_HOST} 127.0.0.1`],
  },
});

type Level = 'full' | 'matches' | 'schema';
type Kind = 'sqlite' | 'csv';

const EXPLAINED: MockReply = { text: 'Explanation: Every member.\nVerdict: unsure' };

let mock: MockLlm | undefined;
/** The mock's answers for the task under way (one server for the page, a script per task). */
let answer: (req: RecordedRequest) => MockReply = () => ({ text: 'No task is under way.' });
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Opens the page with the level stored for the mock's target, and the data as the person would drop it. */
async function start(page: Page, level: Level, kind: Kind): Promise<MockLlm> {
  mock = await startMockLlm({ script: (req) => answer(req) });
  const url = mock.url.replace('127.0.0.1', CLOUD_HOST);
  const target = `openai ${new URL(url).origin}`;
  await useMockModel(page, url, {
    key: 'sk-test-markers-5120',
    mode: 'auto',
    privacy: { levels: { [target]: level }, reviewPrompts: false },
  });
  await openApp(page);
  const file =
    kind === 'sqlite'
      ? { name: 'members.sqlite', bytes: [...(await buildDb(MEMBERS_SQL))] }
      : { name: 'members.csv', bytes: [...Buffer.from(MEMBERS_CSV)] };
  await page.evaluate(({ name, bytes }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], name));
    for (const type of ['dragenter', 'dragover', 'drop'])
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, file);
  if (kind === 'csv') {
    const dialog = page.getByRole('dialog', { name: 'Import table files' });
    await dialog.getByLabel('First row of members.csv').selectOption('yes');
    await dialog.getByRole('button', { name: 'Import' }).click();
  }
  await expect(page.getByRole('button', { name: file.name, exact: true })).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('li[data-table="members"]')).toBeVisible();
  return mock;
}

/** What one task sent: its request count and the markers in their bodies. */
interface Outcome {
  task: string;
  requests: number;
  markers: string[];
  /** Requests of the task not checked: its turn at full, before the level change. */
  skipped: number;
}

/**
 * Runs one task with its own script: `act` does it in the page, waiting with `sent()` until its
 * first request has arrived (so a status read after it is this task's), then until it ended.
 * Only the requests after `mark()` count (called after a level change; else all of the task's).
 */
async function runTask(
  m: MockLlm,
  task: string,
  script: { replies: readonly MockReply[]; last: MockReply },
  act: (sent: () => Promise<void>, mark: () => void) => Promise<void>,
): Promise<Outcome> {
  answer = attacker(script.replies, script.last);
  const start = m.requests.length;
  let from = start;
  const sent = async () => {
    const before = from;
    await expect
      .poll(() => m.requests.length, { message: `${task}: no request reached the server` })
      .toBeGreaterThan(before);
  };
  await act(sent, () => (from = m.requests.length));
  const requests = m.requests.slice(from);
  return { task, requests: requests.length, markers: markersIn(bodiesOf(requests)), skipped: from - start };
}

async function setLevel(page: Page, level: Level) {
  const settings = page.getByRole('button', { name: 'Settings', exact: true });
  await settings.click();
  await page.getByRole('dialog', { name: 'Settings' }).getByLabel('Privacy level').selectOption(level);
  await settings.click();
  await expect(page.getByRole('dialog', { name: 'Settings' })).toHaveCount(0);
}

/** Asks in the Ask tab with the answer mode chosen, as a new conversation unless `followUp`. */
async function ask(page: Page, sent: () => Promise<void>, question: string, mode: string, followUp = false) {
  await page.getByRole('tab', { name: 'Ask', exact: true }).click();
  await page.getByRole('radio', { name: mode, exact: true }).check();
  const follow = page.getByLabel(/Follow up on the answer to/);
  if (followUp) await follow.check();
  else if (await follow.count()) await follow.uncheck();
  await page.getByLabel('Question').fill(question);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await sent();
  await expect(page.getByTestId('run')).toHaveAttribute('data-status', 'done');
}

/** Explain, Fix or Optimize on `sql` typed in the editor (null: the editor's text as a run left it). */
async function editorTask(page: Page, sent: () => Promise<void>, sql: string | null, start: () => Promise<void>) {
  if (sql === null) await page.getByRole('tab', { name: 'SQL', exact: true }).click();
  else {
    await setSql(page, sql);
    await page.keyboard.press('Escape');
  }
  await start();
  await sent();
  await expect(page.getByTestId('sql-task')).toHaveAttribute('data-status', 'done');
}

async function evaluate(page: Page, sent: () => Promise<void>, mode: string) {
  await page.getByRole('tab', { name: 'Evaluate', exact: true }).click();
  const view = page.getByTestId('evaluate');
  await view.getByLabel('Question file').setInputFiles({
    name: 'members-questions.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify([{ question: QUESTION, sql: COUNT_SQL }])),
  });
  await view.getByLabel('Answer with').selectOption(mode);
  await view.getByRole('button', { name: 'Evaluate', exact: true }).click();
  await sent();
  await expect(view.getByTestId('eval-status')).toHaveAttribute('data-status', 'done');
  await expect(view.getByTestId('eval-status')).toContainText('1 of 1 question');
}

// Written at full: a plan that quotes a marker (as a model's plan quotes the values it read).
const PLAN_AT_FULL = {
  sub_questions: [{ text: `Members in '${MEMBERS[1][1]}'`, tables: [{ table: 'members', columns: ['town'] }] }],
};

/** The level set to full in Settings and a question answered there by the agent, markers and all. */
async function turnAtFull(page: Page, m: MockLlm, sent: () => Promise<void>) {
  await setLevel(page, 'full');
  const first = m.requests.length;
  answer = attacker([toolCall('p', 'submit_plan', PLAN_AT_FULL)], toolCall('d', 'done', { sql: EXPRESSION_SQL }));
  await ask(page, sent, QUESTION, 'Agent');
  expect(markersIn(bodiesOf(m.requests.slice(first))), 'the turn at full sends markers').not.toEqual([]);
}

/** Every task of the page that talks to a model, in sequence on one page. */
async function everyTask(page: Page, m: MockLlm, level: Level): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const run = (task: string, script: Parameters<typeof runTask>[2], act: Parameters<typeof runTask>[3]) =>
    test.step(task, async () => void out.push(await runTask(m, task, script, act)));

  await run(
    'Ask in Auto (with its check)',
    { replies: [sqlReply(ATTACKS[0]), sqlReply(ALL_ROWS_SQL)], last: sqlReply(COUNT_SQL) },
    (sent) => ask(page, sent, QUESTION, 'Auto'),
  );
  await run('Ask in Direct', { replies: ATTACKS.map(sqlReply), last: sqlReply(ALL_ROWS_SQL) }, (sent) =>
    ask(page, sent, QUESTION, 'Direct'),
  );
  await run('Ask with the agent (with its check)', { replies: AGENT_REPLIES, last: DONE }, (sent) =>
    ask(page, sent, QUESTION, 'Agent'),
  );
  // The agent's plan, just made, is the one its step is checked against.
  await run(
    'Check this step',
    { replies: AGENT_REPLIES.slice(1), last: toolCall('d', 'done', { sql: ALL_ROWS_SQL }) },
    async (sent) => {
      const plan = page.getByTestId('run').getByTestId('plan-card');
      await plan.getByRole('button', { name: 'check this step' }).first().click();
      await sent();
      await expect(plan.getByTestId('step-preview').or(plan.getByTestId('step-check-failed'))).toBeVisible();
    },
  );
  await run('Link', { replies: [sqlReply(ALL_ROWS_SQL)], last: sqlReply(COUNT_SQL) }, async (sent) => {
    await page.getByLabel('Question').fill(QUESTION);
    const link = page.getByTestId('link');
    await link.getByRole('button', { name: 'Which tables does it need?' }).click();
    await sent();
    await expect(link.locator('[data-linked-table="members"]')).toBeVisible();
    await expect(link.getByRole('button', { name: 'Which tables does it need?' })).toBeEnabled();
  });
  await run('Explain', { replies: [EXPLAINED], last: EXPLAINED }, (sent) =>
    editorTask(page, sent, ALL_ROWS_SQL, () => page.getByRole('button', { name: 'Explain' }).click()),
  );
  await run('Fix', { replies: ATTACKS.slice(1).map(sqlReply), last: sqlReply(ALL_ROWS_SQL) }, (sent) =>
    editorTask(page, sent, ATTACKS[0], async () => {
      await page.getByRole('button', { name: 'Fix…' }).click();
      await page.getByLabel('What the SQL should answer').fill(QUESTION);
      await page.getByRole('button', { name: 'Fix', exact: true }).click();
    }),
  );
  await run('Optimize', { replies: [sqlReply(ATTACKS[0])], last: sqlReply(ALL_ROWS_SQL) }, (sent) =>
    editorTask(page, sent, ALL_ROWS_SQL, () => page.getByRole('button', { name: 'Optimize' }).click()),
  );
  await run(
    'Evaluate (Auto)',
    { replies: [sqlReply(ATTACKS[0]), sqlReply(ALL_ROWS_SQL)], last: sqlReply(COUNT_SQL) },
    (sent) => evaluate(page, sent, 'auto'),
  );
  await run('Evaluate (agent)', { replies: AGENT_REPLIES, last: DONE }, (sent) => evaluate(page, sent, 'agent'));
  await run('Evaluate (Direct)', { replies: ATTACKS.map(sqlReply), last: sqlReply(ALL_ROWS_SQL) }, (sent) =>
    evaluate(page, sent, 'direct'),
  );
  if (level === 'full') return out;

  // A turn at full, then the level lowered in Settings: only what is sent after the change counts.
  // The turn's plan quotes a marker and its SQL names one in an un-aliased expression (SQLite's
  // column name): text the model wrote at full that the next requests could carry.
  await run(
    `Check this step on a plan written at full, then ${level}`,
    { replies: AGENT_REPLIES.slice(1), last: toolCall('d', 'done', { sql: ALL_ROWS_SQL }) },
    async (sent, mark) => {
      const after = answer;
      await turnAtFull(page, m, sent);
      answer = after;
      await setLevel(page, level);
      mark();
      const plan = page.getByTestId('run').getByTestId('plan-card');
      await plan.getByRole('button', { name: 'check this step' }).first().click();
      await sent();
      await expect(plan.getByTestId('step-preview').or(plan.getByTestId('step-check-failed'))).toBeVisible();
    },
  );
  await run(
    `Follow-up on the turn at full, after the change to ${level}`,
    { replies: [sqlReply(ALL_ROWS_SQL)], last: sqlReply(ALL_ROWS_SQL) },
    async (sent) => {
      const before = m.requests.length;
      await ask(page, sent, FOLLOW_UP, 'Auto', true);
      expect(bodiesOf(m.requests.slice(before))).toContain('Earlier in this conversation');
      expect(bodiesOf(m.requests.slice(before))).toContain('max(CASE WHEN name =');
    },
  );
  return out;
}

const report = (level: Level, kind: Kind, outcomes: Outcome[]) => {
  for (const o of outcomes)
    test.info().annotations.push({
      type: `${level} · ${kind} · ${o.task}`,
      description: `${o.requests} requests, ${o.markers.length} markers${o.markers.length ? ': ' + o.markers.join(' ') : ''}`,
    });
};

test.describe('red team 4: markers through every task in the page', () => {
  test.describe.configure({ timeout: 240_000 });

  test('the markers are at least 25, none a word of the questions', () => {
    expect(MARKERS.length).toBeGreaterThanOrEqual(25);
    for (const marker of MARKERS) expect(`${QUESTION} ${FOLLOW_UP}`).not.toContain(marker);
  });

  for (const kind of ['sqlite', 'csv'] as const)
    test(`under full on the ${kind} data the attacks bring the markers to the server (a leak would be seen)`, async ({
      page,
    }) => {
      const m = await start(page, 'full', kind);
      const outcomes = await everyTask(page, m, 'full');
      report('full', kind, outcomes);
      for (const o of outcomes) expect(o.requests, o.task).toBeGreaterThan(0);
      const agent = outcomes.find((o) => o.task === 'Ask with the agent (with its check)')!;
      expect(agent.markers.length).toBeGreaterThanOrEqual(25);
      expect(markersIn(bodiesOf(m.requests)).length).toBeGreaterThanOrEqual(25);
    });

  for (const level of ['schema', 'matches'] as const)
    for (const kind of ['sqlite', 'csv'] as const)
      test(`under ${level} on the ${kind} data: no marker reaches the server from any task`, async ({ page }) => {
        const m = await start(page, level, kind);
        const outcomes = await everyTask(page, m, level);
        report(level, kind, outcomes);
        for (const o of outcomes) {
          expect(o.requests, `${o.task}: requests`).toBeGreaterThan(0);
          expect.soft(o.markers, `${o.task}: markers in its request bodies`).toEqual([]);
        }
        // Every request was one task's: none went out between the tasks unchecked.
        expect(outcomes.reduce((n, o) => n + o.requests + o.skipped, 0)).toBe(m.requests.length);
      });
});

// After the level is lowered: the editor's SQL (the answer the turn at full put there, its literal
// and SQLite's expression column name included) goes to Explain, Fix and Optimize with its values
// marked, and "Regenerate from plan" sends the plan written at full with its quoted values marked
// (they were the person's own text before, and leaked).
const AFTER_THE_CHANGE: Record<
  string,
  {
    script: Parameters<typeof runTask>[2];
    act: (page: Page, sent: () => Promise<void>) => Promise<void>;
  }
> = {
  Explain: {
    script: { replies: [EXPLAINED], last: EXPLAINED },
    act: (page, sent) => editorTask(page, sent, null, () => page.getByRole('button', { name: 'Explain' }).click()),
  },
  Optimize: {
    script: { replies: [sqlReply(ALL_ROWS_SQL)], last: sqlReply(ALL_ROWS_SQL) },
    act: (page, sent) => editorTask(page, sent, null, () => page.getByRole('button', { name: 'Optimize' }).click()),
  },
  Fix: {
    script: { replies: [sqlReply(COUNT_SQL)], last: sqlReply(COUNT_SQL) },
    act: (page, sent) =>
      editorTask(page, sent, null, async () => {
        await page.getByRole('button', { name: 'Fix…' }).click();
        await page.getByLabel('What is wrong').fill('it should count the members');
        await page.getByRole('button', { name: 'Fix', exact: true }).click();
      }),
  },
  'Regenerate from plan': {
    script: { replies: [], last: DONE },
    act: async (page, sent) => {
      const plan = page.getByTestId('run').getByTestId('plan-card');
      await plan.getByRole('button', { name: 'edit' }).click();
      await plan.getByRole('button', { name: 'Regenerate from plan' }).click();
      await sent();
      await expect(page.getByTestId('run')).toHaveAttribute('data-status', 'done');
    },
  },
};

test.describe('red team 4: after full → schema, what the model wrote at full', () => {
  for (const [task, { script, act }] of Object.entries(AFTER_THE_CHANGE))
    test(`${task} sends none of the ${task === 'Regenerate from plan' ? 'plan' : 'SQL'} the model wrote at full`, async ({
      page,
    }) => {
      const m = await start(page, 'schema', 'sqlite');
      const outcome = await runTask(m, task, script, async (sent, mark) => {
        const after = answer;
        await turnAtFull(page, m, sent);
        answer = after;
        await setLevel(page, 'schema');
        mark();
        await act(page, sent);
      });
      report('schema', 'sqlite', [outcome]);
      expect(outcome.requests).toBeGreaterThan(0);
      expect(outcome.markers).toEqual([]);
    });
});
