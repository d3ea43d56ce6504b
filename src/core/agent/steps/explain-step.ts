// The agent's closing step once done's SQL ran: the `final` event with the rows and a second,
// tool-less model call that explains the SQL in plain words with a verdict. A failed explanation
// never loses the SQL and its rows.

import { AbortedError, raceAbort } from '../abort';
import type { AgentEvent } from '../events';
import { parseExplanation, requestExplanation } from '../explain';
import type { OkSqlOutcome, RunHost } from './run-host';

export async function* explainFinish(
  run: Pick<RunHost, 'o' | 'ev' | 'usageEvent'>,
  result: OkSqlOutcome,
  options: { unverified?: boolean } = {},
): AsyncGenerator<AgentEvent> {
  const { o } = run;
  const rows = result.rows.slice(0, o.finalRows);
  const base = {
    type: 'final' as const,
    ...(options.unverified ? { unverified: true } : {}),
    sql: result.sql,
    columns: result.columns,
    rows,
    totalRows: result.totalRows,
    truncated: result.truncated || rows.length < result.rows.length,
  };
  const t0 = o.now();
  try {
    const request = requestExplanation(
      o.model,
      {
        question: o.question,
        hints: o.hints,
        sql: result.sql,
        columns: result.columns,
        rows,
        totalRows: result.totalRows,
      },
      o.signal,
    );
    const response = await raceAbort(request, o.signal);
    yield run.usageEvent(response.usage, o.now() - t0, 'explain');
    const explained = parseExplanation(response.text);
    if (explained) yield run.ev({ ...base, ...explained });
    else yield run.ev({ ...base, explanation: null, verdict: 'unsure', note: 'The model gave no explanation.' });
  } catch (e) {
    const why =
      e instanceof AbortedError || o.signal?.aborted
        ? 'Stopped before the explanation was written.'
        : `The explanation could not be written: ${e instanceof Error ? e.message : String(e)}`;
    yield run.ev({ ...base, explanation: null, verdict: 'unsure', note: why });
  }
}
