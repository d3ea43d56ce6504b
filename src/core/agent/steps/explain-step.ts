// The closing step once the final SQL ran: the `final` event with the rows and its explanation.
// The explanation comes from the answer turn when the model wrote one after seeing the rows (the
// agent's `done {sql, explanation}`); otherwise a short tool-less check writes it with a verdict
// and, when the result does not answer the question, the problem — which the caller acts on
// (issue 22: no request whose outcome nothing reads). A failed check never loses the SQL and its rows.

import { AbortedError, raceAbort } from '../abort';
import type { AgentEvent } from '../events';
import { parseExplanation, requestExplanation } from '../explain';
import type { AnswerCheck, FinishOptions, OkSqlOutcome, RunHost } from './run-host';
import { columnListing } from '../../prompt/schema-text';
import { tableAliases } from '../../sql/compared-literals';

export type { AnswerCheck } from './run-host';

type CheckHost = Pick<RunHost, 'o' | 'ev' | 'usageEvent'>;

/** The check request: a verdict, the problem if any, and the explanation, from the SQL and up to 20 rows. */
export async function* checkAnswer(
  run: CheckHost,
  result: OkSqlOutcome,
  checked?: string[],
  why?: string[],
): AsyncGenerator<AgentEvent, AnswerCheck> {
  const { o } = run;
  const read = new Set(tableAliases(result.sql, o.schema).values());
  const tables = columnListing({ ...o.schema, tables: o.schema.tables.filter((t) => read.has(t.name)) });
  const t0 = o.now();
  try {
    const request = requestExplanation(
      o.model,
      {
        question: o.question,
        hints: o.hints,
        sql: result.sql,
        columns: result.columns,
        rows: result.rows,
        totalRows: result.totalRows,
        checked,
        ...(why?.length ? { why } : {}),
        ...(tables ? { tables } : {}),
        dialect: o.schema.dialect,
        earlier: o.history?.map((t) => t.question),
        ...(o.confirmedPlan
          ? { plan: o.confirmedPlan.sub_questions.map((q) => q.text), planFromAnotherRun: o.planFromAnotherRun }
          : {}),
      },
      o.signal,
    );
    const response = await raceAbort(request, o.signal);
    yield run.usageEvent(
      response.usage,
      o.now() - t0,
      'explain',
      why?.length ? `a check: ${why.join('; ')}` : undefined,
    );
    return (
      parseExplanation(response.text) ?? {
        explanation: null,
        verdict: 'unsure',
        note: 'The model gave no explanation.',
      }
    );
  } catch (e) {
    if (e instanceof AbortedError || o.signal?.aborted)
      return { explanation: null, verdict: 'unsure', note: 'Stopped before the explanation was written.' };
    return {
      explanation: null,
      verdict: 'unsure',
      note: `The explanation could not be written: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

/** The `final` event: the rows the run carries, the explanation and verdict. */
export function finalEvent(
  run: Pick<RunHost, 'o' | 'ev'>,
  result: OkSqlOutcome,
  check: AnswerCheck,
  options: FinishOptions = {},
): AgentEvent {
  const rows = result.rows.slice(0, run.o.finalRows);
  const note = [check.note, options.note].filter(Boolean).join(' ');
  return run.ev({
    type: 'final',
    ...(options.unverified ? { unverified: true } : {}),
    sql: result.sql,
    columns: result.columns,
    rows,
    totalRows: result.totalRows,
    truncated: result.truncated || rows.length < result.rows.length,
    explanation: check.explanation,
    verdict: check.verdict,
    ...(note ? { note } : {}),
  });
}

/** Check, then finish with whatever the check said (the turn limit's unverified answer). */
export async function* explainFinish(
  run: CheckHost,
  result: OkSqlOutcome,
  options: FinishOptions = {},
): AsyncGenerator<AgentEvent> {
  const check = yield* checkAnswer(run, result);
  yield finalEvent(run, result, check, options);
}
