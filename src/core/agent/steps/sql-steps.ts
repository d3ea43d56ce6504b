// execute_sql and done: the SQL runs through the read-only tool; repair rounds are counted; done
// runs its SQL once more so what is shown is what it returns, then the run finishes.

import { describeZodError } from '../../tools/registry';
import type { AgentEvent } from '../events';
import { REPAIR_BLOCKED_NOTE } from '../guards';
import { doneInput } from '../prompt';
import { readSqlOutcome } from '../sql-outcome';
import type { ArgsCall, RunHost, Step } from './run-host';

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
    // An empty result can be the answer ("which … none"); it still counts as a repair round.
    if (sql.ok) run.state.executedOk = true;
    const repair = run.repairs.record(sql.ok && !sql.empty);
    if (repair) text += `\n${repair}`;
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
  // The final SQL is run once more (read-only, rows capped) so what is shown is what it returns.
  const outcome = await run.runTool('execute_sql', { sql: parsed.data.sql });
  const result = readSqlOutcome(outcome);
  if (!result || !result.ok) {
    const repair = result ? run.repairs.record(false) : '';
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
