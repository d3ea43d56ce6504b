// The editor's SQL tasks: Explain, Fix and Optimize on the statement under the cursor. The model
// comes from the settings, like Ask; SQL runs in the database worker through the read-only gates
// (execute_sql for Explain and Fix, engine.query for Optimize's full results and timings).

import { executorFor } from '../../core/executor';
import { toDowserError } from '../../core/errors';
import { explainSql } from '../../core/tasks/explain-sql';
import { fixSql } from '../../core/tasks/fix-sql';
import { optimizeSql } from '../../core/tasks/optimize-sql';
import { sameSqlText } from '../../core/tasks/model-sql';
import type { ChatModel } from '../../core/llm/types';
import { fullSchema } from '../queries/schema-reading';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import { streamLimitsOf } from '../lib/app-settings';
import { useAsk } from '../store/ask-store';
import { useTasks, type SqlTask } from '../store/task-store';
import { announce } from '../store/announce-store';
import { taskAnnouncement } from '../lib/task-announcements';
import { runTool } from './tools';
import { privacyLevelFor, recordOutgoing } from './privacy';

async function setUp(dbId: string) {
  const services = getServices();
  services.engine.queryTimeoutMs = useApp.getState().settings.queryTimeoutMs;
  const schema = await fullSchema(services, dbId);
  const settings = useAsk.getState().model;
  // The same privacy level and prompt record as Ask: a cloud server asks for the level first.
  const privacy = await privacyLevelFor(settings);
  if (!privacy) throw new Error('No privacy level was chosen, so nothing was sent.');
  const limits = streamLimitsOf(useApp.getState().settings);
  const model: ChatModel = await services.createChatModel(settings, undefined, recordOutgoing, limits);
  const tools = { call: (name: string, args: unknown) => runTool(dbId, name, args) };
  return { schema, model, privacy, tools, exec: executorFor(services.engine, dbId) };
}

let taskIds = 0;

/** Runs one task; its failure (a model that cannot be reached, a worker restart) is shown, not thrown. */
async function track(
  dbId: string,
  start: DistributiveOmit<SqlTask, 'id'>,
  work: (id: number) => Promise<Partial<SqlTask>>,
): Promise<void> {
  const id = ++taskIds;
  const tasks = () => useTasks.getState();
  tasks().setTask(dbId, { ...start, id } as SqlTask);
  const finish = (patch: Partial<SqlTask>) => {
    const current = tasks().tasks[dbId];
    if (current?.id === id) tasks().setTask(dbId, { ...current, ...patch } as SqlTask);
  };
  try {
    finish({ ...(await work(id)), status: 'done' });
  } catch (e) {
    finish({ status: 'failed', error: toDowserError(e).message });
  }
  const done = tasks().tasks[dbId];
  const words = done?.id === id ? taskAnnouncement(done) : null;
  if (words) announce(words);
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export function explainEditorSql(dbId: string, sql: string, question?: string): Promise<void> {
  return track(dbId, { kind: 'explain', status: 'running', sql }, async () => {
    const { schema, model, privacy, tools } = await setUp(dbId);
    const sqlFromAnotherRun = isAnAnswer(dbId, sql);
    return { report: await explainSql({ sql, question, schema, model, privacy, tools, sqlFromAnotherRun }) };
  });
}

export function fixEditorSql(dbId: string, sql: string, question: string, note: string): Promise<void> {
  return track(dbId, { kind: 'fix', status: 'running', sql, progress: [] }, async (id) => {
    const { schema, model, privacy, tools } = await setUp(dbId);
    const report = await fixSql({
      sql,
      question,
      note,
      schema,
      model,
      privacy,
      tools,
      sqlFromAnotherRun: isAnAnswer(dbId, sql),
      onAttempt: (a) => {
        const task = useTasks.getState().tasks[dbId];
        if (task?.kind === 'fix' && task.id === id)
          useTasks.getState().setTask(dbId, { ...task, progress: [...task.progress, a] });
      },
    });
    return { report };
  });
}

export function optimizeEditorSql(dbId: string, sql: string): Promise<void> {
  return track(dbId, { kind: 'optimize', status: 'running', sql }, async () => {
    const { schema, model, privacy, exec } = await setUp(dbId);
    return {
      report: await optimizeSql({ sql, schema, model, privacy, exec, sqlFromAnotherRun: isAnAnswer(dbId, sql) }),
    };
  });
}

/**
 * Whether `sql` is the answer of one of the database's runs (the current one or an earlier turn of
 * its conversation), put in the editor by Ask: that run may have read its values at a fuller
 * privacy level than now, so a task sends its literals as values (core/tasks/other-run-sql.ts).
 * SQL the person wrote or changed is theirs.
 */
function isAnAnswer(dbId: string, sql: string): boolean {
  const { runs, threads } = useAsk.getState();
  return [...(threads[dbId] ?? []), runs[dbId]].some((run) =>
    run?.events.some((e) => e.type === 'final' && sameSqlText(e.sql, sql)),
  );
}

/**
 * The question of the database's last Ask run: Fix's form starts with it (the person edits it);
 * with `sql`, only when that run's answer is this SQL (Explain's verdict is about that question).
 */
export function lastQuestion(dbId: string, sql?: string): string {
  const run = useAsk.getState().runs[dbId];
  if (!run) return '';
  if (sql === undefined) return run.question;
  const final = run.events.find((e) => e.type === 'final');
  return final?.type === 'final' && sameSqlText(final.sql, sql) ? run.question : '';
}
