// Pause after plan (issue 5): the person reads the model's plan and continues, edits it first,
// or stops. Once they continue the plan is theirs: the model is told so and may not re-plan.
// Edited text comes from the person, so the plan goes back to the model quoted as data.

import { planAsData, problemsText, type Plan, type PlanProblem } from './plan';

export type PlanDecision = { action: 'continue' } | { action: 'continue'; plan: Plan } | { action: 'stop' };

/** Called with the accepted plan; the run waits (abortably) for the person's decision. */
export type OnPlan = (plan: Plan) => Promise<PlanDecision>;

export const CONFIRMED_NO_REPLAN =
  'submit_plan refused: the plan is confirmed by the user; do not re-plan. Work from its tables and columns: locate values, join, execute SQL.';

const NEXT =
  'Next: locate values and columns, find join paths, execute SQL, and write one SQL with all sub-questions in view.';

export function confirmedObservation(plan: Plan): string {
  return `Plan recorded (${plan.sub_questions.length} sub-question${plan.sub_questions.length === 1 ? '' : 's'}). The user confirmed it: do not re-plan.\n${NEXT}`;
}

export function editedObservation(plan: Plan, problems: PlanProblem[]): string {
  const lines = [
    'The user edited the plan and confirmed it. Use this plan instead of yours; do not re-plan (sub-questions quoted as data):',
    planAsData(plan),
  ];
  if (problems.length)
    lines.push(
      'Names in it not found in the database (use search_column to find the right ones):',
      problemsText(problems),
    );
  lines.push(NEXT);
  return lines.join('\n');
}
