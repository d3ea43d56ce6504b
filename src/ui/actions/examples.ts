// "Correct" marks and the confirmed examples list of a database, and examples imported from a
// file: checked (this database's file, SQL through the read-only gate on it), marked, capped,
// and held for the person's review before any prompt sees them.

import { describeError } from '../../core/errors';
import {
  addImported,
  mergeExamples,
  MAX_EXAMPLES,
  MAX_IMPORT,
  type ConfirmedExample,
} from '../../core/examples/examples';
import { queryKeys } from '../queries';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import type { AskRun } from '../store/ask-store';

const MAX_FILE_BYTES = 50_000_000;

const refresh = (dbName: string) =>
  getServices().queryClient.invalidateQueries({ queryKey: queryKeys.examples(dbName) });

async function store(dbName: string, examples: ConfirmedExample[]) {
  const problem = await getServices().examples.save(dbName, examples);
  if (problem) useApp.getState().notify('warning', problem);
  void refresh(dbName);
}

/**
 * Saves a finished run (question, last plan, final SQL) as a confirmed example; `question` is the
 * person's wording of what it answers where it is not the question asked (an edited plan).
 */
export async function markCorrect(run: AskRun, question = run.question): Promise<void> {
  const final = run.events.find((e) => e.type === 'final');
  if (!final || final.type !== 'final') return;
  const plan = [...run.events].reverse().find((e) => e.type === 'plan');
  const example: ConfirmedExample = {
    id: run.id,
    question,
    sql: final.sql,
    savedAt: new Date().toISOString(),
    plan: plan && plan.type === 'plan' ? plan.plan : null,
    source: 'user',
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

/** The person looked at the imported examples: use them (approve) or drop them. */
export async function reviewImported(dbName: string, accept: boolean): Promise<void> {
  const all = await getServices().examples.list(dbName);
  const pending = (e: ConfirmedExample) => e.source === 'imported' && !e.approved;
  await store(
    dbName,
    accept ? all.map((e) => (pending(e) ? { ...e, approved: true } : e)) : all.filter((e) => !pending(e)),
  );
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

export async function importExamples(dbId: string, dbName: string, file: File): Promise<void> {
  const notify = useApp.getState().notify;
  try {
    if (file.size > MAX_FILE_BYTES)
      throw new Error(`it is ${(file.size / 1e6).toFixed(1)} MB; example files up to ${MAX_FILE_BYTES / 1e6} MB open.`);
    // Parsed in the parse worker: a file of tens of MB would hold the page's thread for seconds.
    const parsed = await getServices().parseFiles.examplesFile(file);
    if (parsed.database !== dbName)
      throw new Error(
        `these examples are for the database "${parsed.database}", not "${dbName}". Open that database to import them.`,
      );
    // Each SQL must pass the read-only gate on this database, and name what it has (EXPLAIN
    // compiles it without running it).
    const passed: ConfirmedExample[] = [];
    let refused = 0;
    let firstRefusal = '';
    for (const e of parsed.examples) {
      try {
        await getServices().engine.query(dbId, `EXPLAIN ${e.sql}`, { maxRows: 0 });
        passed.push(e);
      } catch (err) {
        refused++;
        firstRefusal ||= `"${e.question.slice(0, 60)}": ${describeError(err)}`;
      }
    }
    const result = addImported(await getServices().examples.list(dbName), passed, {
      fileName: file.name,
      now: new Date().toISOString(),
    });
    await store(dbName, result.examples);
    const notes = [
      `Imported ${plural(result.added, 'example')} from "${file.name}". ${result.added ? 'They wait for your review under Confirmed examples: the agent uses them only after you accept them, and then as imported, not as confirmed by you.' : ''}`,
      refused
        ? `Refused ${plural(refused, 'example')} whose SQL does not pass the read-only check on this database (first: ${firstRefusal}).`
        : '',
      parsed.invalid
        ? `Left out ${plural(parsed.invalid, 'entry')} that ${parsed.invalid === 1 ? 'is' : 'are'} not an example (${parsed.firstProblem}).`
        : '',
      parsed.skipped
        ? `Read only the first ${MAX_IMPORT} entries of the file; ${plural(parsed.skipped, 'more')} were not read.`
        : '',
      result.duplicates
        ? `Skipped ${plural(result.duplicates, 'example')} already in the list (an import never replaces one).`
        : '',
      result.overCap ? `Skipped ${plural(result.overCap, 'example')}: a database keeps at most ${MAX_EXAMPLES}.` : '',
    ];
    notify(refused || parsed.invalid || result.overCap ? 'warning' : 'info', notes.filter(Boolean).join(' '));
  } catch (e) {
    notify('error', `Could not import "${file.name}": ${e instanceof Error ? e.message : String(e)}`);
  }
}
