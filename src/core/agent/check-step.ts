// Check this step (issue 5): for one sub-question of a plan, a short run of the agent's own loop
// writes one small read-only SQL answering just that sub-question and ends with its first rows.
// It is a preview for the person, not a stepping stone: nothing from it feeds the final SQL.

import { inDialect } from '../dialect/prompt-text';
import type { PrivacyLevel } from '../privacy/disclose';
import type { ChatModel } from '../llm/types';
import { TOOL_NAMES } from '../tools/registry';
import type { Schema } from '../types';
import { answerLimits, withAnswerBudget, type AnswerLimits } from './answer-budget';
import type { AgentEvent } from './events';
import { AgentRun, agentMode, type AgentTools, type OkSqlOutcome } from './loop';
import { checkGivenPlan, planAsData, type Plan } from './plan';
import {
  agentToolSpecs,
  databaseSection,
  rulesFor,
  TEXT_FORMAT,
  TEXT_STOP,
  toolList,
  type AgentMode,
  type AgentPrompt,
  type AgentToolName,
} from './prompt';

export const STEP_TURNS = 5;
export const PREVIEW_ROWS = 5;

// Retrieval tools and done: no planning (the plan is given) and no questions to the person.
const STEP_TOOLS: readonly AgentToolName[] = [...TOOL_NAMES, 'done'];

export interface CheckStepOptions {
  model: ChatModel;
  /** What of the cell values may reach the model (privacy/disclose.ts); default full. */
  privacy?: PrivacyLevel;
  tools: AgentTools;
  schema: Schema;
  plan: Plan;
  /** 0-based sub-question (events and people count from 1). */
  index: number;
  /** The whole question the plan answers: "How many of those cities…?" needs it to be read. */
  question?: string;
  /**
   * The plan was written in another run (the page's plan card), maybe at a fuller privacy level:
   * the values it quotes are values (`quotedData`), and under matches a value's words must be the
   * question's, not the plan's. A plan the person gave (the CLI's --plan file) is theirs as written.
   */
  planFromAnotherRun?: boolean;
  signal?: AbortSignal;
  mode?: AgentMode;
  now?: () => number;
  /** The check's time and reply budget (answer-budget.ts); its defaults when absent. */
  answerLimits?: AnswerLimits;
}

const PROCESS = `Process (a few turns at most):
1. Locate values with search_value and columns with search_column when the sub-question needs them; find_shortest_path when it spans tables.
2. execute_sql with one small SELECT that answers only this sub-question (no other sub-question, no final answer), LIMIT 5 is fine.
3. done with that SQL. done runs it and shows its first rows to the person.`;

export function buildStepPrompt(
  plan: Plan,
  index: number,
  schema: Schema,
  mode: AgentMode,
  question?: string,
  fromAnotherRun = false,
): AgentPrompt {
  const system = [
    inDialect(
      'You check one step of a plan for a question about a SQLite database: write one small read-only SQL that answers just that step, so a person can see its first rows.',
      schema.dialect,
    ),
    // Native mode: the tools travel in the request, not twice.
    ...(mode === 'text' ? [`Tools (call as "Action: name {json}"):\n${toolList(STEP_TOOLS)}`] : []),
    PROCESS,
    inDialect(rulesFor(mode), schema.dialect),
    ...(mode === 'text' ? [TEXT_FORMAT] : []),
  ].join('\n\n');
  const step = { sub_questions: [plan.sub_questions[index]] };
  const earlier = { sub_questions: plan.sub_questions.slice(0, index) };
  const user = [databaseSection(schema)];
  if (question?.trim()) user.push(`The whole question (for context): ${JSON.stringify(question.trim())}`);
  if (index > 0)
    user.push(
      `Earlier sub-questions (context only; "those", "them" may refer to their answers):\n${planAsData(earlier, { fromAnotherRun })}`,
    );
  user.push(
    `The step to check, sub-question ${index + 1} of ${plan.sub_questions.length} (quoted as data; tables and their columns after the dash):\n${planAsData(step, { fromAnotherRun }).replace(/^1\./, `${index + 1}.`)}`,
    'Start from those tables and columns. Answer only this sub-question (with what it needs of the earlier ones).',
  );
  const text = user.join('\n\n');
  return mode === 'native'
    ? { system, user: text, tools: agentToolSpecs(STEP_TOOLS) }
    : { system, user: text, stop: [TEXT_STOP] };
}

/** The loop with a different prompt and ending: the first rows, no explanation call. */
class StepRun extends AgentRun {
  constructor(
    options: CheckStepOptions,
    private readonly index: number,
    prompt: AgentPrompt,
  ) {
    super(
      {
        // The privacy policy's words under matches: the person's, never those of a plan written elsewhere.
        question: options.planFromAnotherRun ? (options.question ?? '') : options.plan.sub_questions[index].text,
        model: options.model,
        privacy: options.privacy,
        tools: options.tools,
        schema: options.schema,
        signal: options.signal,
        mode: options.mode,
        now: options.now,
        maxTurns: STEP_TURNS,
        finalRows: PREVIEW_ROWS,
      },
      { prompt, offered: STEP_TOOLS, checksAnswer: false },
    );
  }

  override async *finish(result: OkSqlOutcome, options: { unverified?: boolean } = {}): AsyncGenerator<AgentEvent> {
    const rows = result.rows.slice(0, PREVIEW_ROWS);
    yield this.ev({
      type: 'step_preview',
      subQuestion: this.index + 1,
      ...(options.unverified ? { unverified: true } : {}),
      sql: result.sql,
      columns: result.columns,
      rows,
      totalRows: result.totalRows,
      truncated: result.truncated || rows.length < result.rows.length,
    });
  }
}

export async function* checkStep(options: CheckStepOptions): AsyncGenerator<AgentEvent> {
  const at = () => (options.now ?? Date.now)();
  const checked = checkGivenPlan(options.plan, options.schema);
  if (!checked.ok) {
    yield { type: 'error', code: 'bad_plan', message: checked.message, step: 0, at: at() };
    return;
  }
  const { plan } = checked;
  if (!Number.isInteger(options.index) || options.index < 0 || options.index >= plan.sub_questions.length) {
    yield {
      type: 'error',
      code: 'bad_plan',
      message: `The plan has no sub-question ${options.index + 1} (it has ${plan.sub_questions.length}).`,
      step: 0,
      at: at(),
    };
    return;
  }
  const prompt = buildStepPrompt(
    plan,
    options.index,
    options.schema,
    agentMode(options),
    options.question,
    options.planFromAnotherRun,
  );
  yield* withAnswerBudget(options.answerLimits ?? answerLimits(), { ...options, plan }, (o) =>
    new StepRun(o, options.index, prompt).events(),
  );
}
