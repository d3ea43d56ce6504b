// execute_sql and done: the SQL runs through the read-only tool; repair rounds are counted; done
// runs its SQL once more so what is shown is what it returns, then the run finishes.

import { describeZodError } from '../../tools/registry';
import type { AgentEvent } from '../events';
import { REPAIR_BLOCKED_NOTE } from '../guards';
import { doneInput } from '../prompt';
import { readSqlOutcome } from '../sql-outcome';
import type { ArgsCall, RunHost, Step } from './run-host';

const DONE_WITHOUT_SQL = 'done refused: no SQL has run yet, so give the final SQL: done {"sql": "SELECT …"}.';

const DONE_TOO_EARLY =
  'done refused: no execute_sql has succeeded yet. Run the SQL with execute_sql first, then call done with it.';

export async function* executeStep(run: RunHost, call: ArgsCall, note: string): AsyncGenerator<AgentEvent, Step> {
  if (run.repairs.blocked) {
    yield run.observe(call, REPAIR_BLOCKED_NOTE + note, false);
    return 'continue';
  }
  const outcome = await run.runTool('execute_sql', call.args);
  const sql = readSqlOutcome(outcome);
  let text = outcome.observation;
  if (sql) {
    yield run.ev({ type: 'sql', sql: sql.sql, ok: sql.ok, summary: sql.summary });
    if (sql.ok) {
      run.state.executedOk = true;
      run.state.lastOkSql = sql.sql;
      if (!sql.empty) run.state.lastRowsSql = sql.sql;
    }
    // Only SQL errors are repair rounds: an empty result can be the answer ("which … none").
    if (sql.ok || sql.code === 'sql_error') {
      const repair = run.repairs.record(sql.ok);
      if (repair) text += `\n${repair}`;
    }
  }
  yield run.observe(call, text + note, outcome.ok && !!sql?.ok, outcome.ms);
  return 'continue';
}

export async function* doneStep(run: RunHost, call: ArgsCall, note: string): AsyncGenerator<AgentEvent, Step> {
  const parsed = doneInput.safeParse(call.args);
  if (!parsed.success) {
    yield run.observe(call, `Bad arguments for done: ${describeZodError(parsed.error)}.${note}`, false);
    return 'continue';
  }
  if (run.doneNeedsExecute && !run.state.executedOk) {
    yield run.observe(call, DONE_TOO_EARLY + note, false);
    return 'continue';
  }
  const finalSql = parsed.data.sql ?? run.state.lastOkSql;
  if (!finalSql) {
    yield run.observe(call, DONE_WITHOUT_SQL + note, false);
    return 'continue';
  }
  // The final SQL is run once more (read-only, rows capped) so what is shown is what it returns.
  const outcome = await run.runTool('execute_sql', { sql: finalSql });
  const result = readSqlOutcome(outcome);
  if (!result || !result.ok) {
    const repair = result && !result.ok && result.code === 'sql_error' ? run.repairs.record(false) : '';
    yield run.observe(
      call,
      `done refused: the SQL failed when run.\n${outcome.observation}${repair ? `\n${repair}` : ''}${note}`,
      false,
      outcome.ms,
    );
    return 'continue';
  }
  yield run.ev({ type: 'sql', sql: result.sql, ok: true, summary: result.summary });
  yield run.observe(call, `Final SQL accepted: ${result.summary}.`, true, outcome.ms);
  yield* run.finish(result);
  return 'end';
}
