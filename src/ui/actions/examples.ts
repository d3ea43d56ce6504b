// "Correct" marks and the confirmed examples list of a database.

import { examplesFromJson, mergeExamples, type ConfirmedExample } from '../../core/examples/examples';
import { queryKeys } from '../queries';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import type { AskRun } from '../store/ask-store';

const refresh = (dbName: string) =>
  getServices().queryClient.invalidateQueries({ queryKey: queryKeys.examples(dbName) });

async function store(dbName: string, examples: ConfirmedExample[]) {
  const problem = await getServices().examples.save(dbName, examples);
  if (problem) useApp.getState().notify('warning', problem);
  void refresh(dbName);
}

/** Saves a finished run (question, last plan, final SQL) as a confirmed example. */
export async function markCorrect(run: AskRun): Promise<void> {
  const final = run.events.find((e) => e.type === 'final');
  if (!final || final.type !== 'final') return;
  const plan = [...run.events].reverse().find((e) => e.type === 'plan');
  const example: ConfirmedExample = {
    id: run.id,
    question: run.question,
    sql: final.sql,
    savedAt: new Date().toISOString(),
    plan: plan && plan.type === 'plan' ? plan.plan : null,
  };
  await store(run.dbName, mergeExamples(await getServices().examples.list(run.dbName), [example]));
  useApp.getState().notify('info', 'Saved as a confirmed example: similar questions on this database will use it.');
}

export async function deleteExample(dbName: string, id: string): Promise<void> {
  await store(
    dbName,
    (await getServices().examples.list(dbName)).filter((e) => e.id !== id),
  );
}

export async function importExamples(dbName: string, file: File): Promise<void> {
  try {
    const incoming = examplesFromJson(await file.text());
    await store(dbName, mergeExamples(await getServices().examples.list(dbName), incoming));
    useApp.getState().notify('info', `Imported ${incoming.length} example${incoming.length === 1 ? '' : 's'}.`);
  } catch (e) {
    useApp.getState().notify('error', `Could not import "${file.name}": ${e instanceof Error ? e.message : String(e)}`);
  }
}
