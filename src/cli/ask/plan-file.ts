// `--plan <plan.json>`: a plan in the submit_plan shape, the same one the page's plan editor
// produces, so edits and step checks can be run (and tested) headless. Any problem with it, shape
// or names, is a usage error (exit 2) listing every problem, before a model is called.

import { checkGivenPlan, type Plan } from '../../core/agent/plan';
import type { Schema } from '../../core/types';
import { UsageError, type CliIo } from '../command';

/** The file's JSON, not yet checked. */
export function readPlanFile(io: CliIo, path: string): unknown {
  let text: string;
  try {
    text = new TextDecoder().decode(io.readFile(path));
  } catch (e) {
    throw new UsageError(`cannot read --plan "${path}": ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--plan "${path}" is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** The plan in the schema's spelling; a UsageError with the list of problems otherwise. */
export function planFromFile(raw: unknown, path: string, schema: Schema, checkStep?: number): Plan {
  const checked = checkGivenPlan(raw, schema);
  if (!checked.ok) throw new UsageError(`--plan "${path}": ${checked.message}`);
  const count = checked.plan.sub_questions.length;
  if (checkStep !== undefined && checkStep > count)
    throw new UsageError(`--check-step ${checkStep}: the plan has ${count} sub-question${count === 1 ? '' : 's'}`);
  return checked.plan;
}
