// execute_sql and done: the SQL runs through the read-only tool; repair rounds are counted; done
// runs its SQL once more so what is shown is what it returns, then the run finishes — at once
// when done explains rows the model has seen, else after a check of the result, which may send
// the model back once with the problem it found (issue 22: the verdict acts or is not asked).

import { describeZodError } from '../../tools/registry';
import type { AgentEvent } from '../events';
import { REPAIR_BLOCKED_NOTE } from '../guards';
import { doneInput } from '../prompt';
import { normalizeSql, readSqlOutcome } from '../sql-outcome';
import { jsonData } from '../../tools/quote-data';
import { finalEvent } from './explain-step';
import { codeAssumptionNote, codeAssumptionObservation, codeSignal } from '../code-evidence';
import type { ArgsCall, RunHost, Step } from './run-host';

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
      run.state.lastOkSql = sql.sql;
      run.state.seenSql.add(normalizeSql(sql.sql));
      if (!sql.empty) run.state.lastRowsSql = sql.sql;
      // A code whose meaning the data does not store: said, and a reason the person may be asked.
      const codes = await run.codeAssumptions(sql.sql);
      if (codes.length) {
        text += `\n${codeAssumptionObservation(codes, run.offered.includes('ask_user'))}`;
        run.state.signals.push(codeSignal(codes));
      }
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
    // done names its SQL: `done {}` once took the last SQL that ran, a probe run after the answer included.
    const noSql = !(call.args && typeof call.args === 'object' && 'sql' in call.args);
    const last = run.state.lastOkSql;
    const hint =
      noSql && last ? ` The last SQL that ran was ${jsonData(last)}; give it as sql if it answers the question.` : '';
    yield run.observe(call, `Bad arguments for done: ${describeZodError(parsed.error)}.${hint}${note}`, false);
    return 'continue';
  }
  // The final SQL is run once more (read-only, rows capped) so what is shown is what it returns.
  const outcome = await run.runTool('execute_sql', { sql: parsed.data.sql });
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
  const finish = { note: codeAssumptionNote(await run.codeAssumptions(result.sql)) };
  const accepted = () => run.observe(call, `Final SQL accepted: ${result.summary}.`, true, outcome.ms);
  if (!run.checksAnswer) {
    yield accepted();
    yield* run.finish(result, finish);
    return 'end';
  }
  // The answer turn explains rows the model saw: nothing more to ask.
  const { explanation } = parsed.data;
  if (explanation && run.state.seenSql.has(normalizeSql(result.sql))) {
    yield accepted();
    yield finalEvent(run, result, { explanation, verdict: 'match' }, finish);
    return 'end';
  }
  const check = yield* run.checkAnswer(result);
  if (check.problem && check.verdict !== 'match' && !run.state.objected) {
    run.state.objected = true;
    run.state.seenSql.add(normalizeSql(result.sql));
    yield run.observe(
      call,
      `done held back: a check of this result against the question says ${check.verdict}: ${jsonData(check.problem)}\n${outcome.observation}\nFix the query, or call done again with the same SQL to keep it.${note}`,
      false,
      outcome.ms,
    );
    return 'continue';
  }
  yield accepted();
  yield finalEvent(run, result, check, finish);
  return 'end';
}
