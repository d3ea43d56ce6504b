// submit_plan: the plan is checked against the schema and reported; with pause-after-plan the run
// waits for the person, who continues, edits (the edit replaces the model's plan) or stops.

import { describeZodError } from '../../tools/registry';
import { raceAbort } from '../abort';
import type { AgentEvent } from '../events';
import { planInput, planObservation, validatePlan } from '../plan';
import { confirmedObservation, editedObservation } from '../plan-pause';
import type { ArgsCall, RunHost, Step } from './run-host';

export async function* planStep(run: RunHost, call: ArgsCall, note: string): AsyncGenerator<AgentEvent, Step> {
  const parsed = planInput.safeParse(call.args);
  if (!parsed.success) {
    yield run.observe(call, `Bad arguments for submit_plan: ${describeZodError(parsed.error)}.${note}`, false);
    return 'continue';
  }
  const { plan, problems } = validatePlan(parsed.data, run.o.schema);
  run.state.planned = true;
  run.repairs.changedApproach();
  yield run.ev({ type: 'plan', plan, problems });
  // The person reviews a plan whose names are real; a plan with problems goes back to the model first.
  if (!run.o.onPlan || problems.length) {
    yield run.observe(call, planObservation(plan, problems) + note, true);
    return 'continue';
  }
  yield run.ev({ type: 'plan_waiting', plan });
  const decision = await raceAbort(run.o.onPlan(plan), run.o.signal);
  if (decision.action === 'stop') {
    yield run.fail('aborted', 'Stopped after the plan.');
    return 'end';
  }
  run.state.confirmed = true;
  if (!('plan' in decision)) {
    yield run.ev({ type: 'plan', plan, problems: [], confirmed: true });
    yield run.observe(call, confirmedObservation(plan) + note, true);
    return 'continue';
  }
  const edited = planInput.safeParse(decision.plan);
  if (!edited.success) {
    yield run.fail('bad_plan', `The edited plan is not in the submit_plan shape: ${describeZodError(edited.error)}.`);
    return 'end';
  }
  const checked = validatePlan(edited.data, run.o.schema);
  yield run.ev({ type: 'plan', plan: checked.plan, problems: checked.problems, confirmed: true, edited: true });
  yield run.observe(call, editedObservation(checked.plan, checked.problems) + note, true);
  return 'continue';
}
