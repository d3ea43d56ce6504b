// How a question is answered, defined once for the page, `dowser ask`, `dowser eval` and the
// Evaluate tab: Auto (the default: one grounded request, more only when the result calls for it,
// the tools when that does not settle it; auto.ts), the agent (plan and tools from the start;
// loop.ts) or Direct (one request with the plain schema, no tools; direct.ts).

import { answerLimits, withAnswerBudget } from './answer-budget';
import { runAuto } from './auto';
import { runDirect } from './direct';
import type { AgentEvent } from './events';
import { runAgent, type RunAgentOptions } from './loop';

export const ANSWER_MODES = ['auto', 'agent', 'direct'] as const;

export type AnswerMode = (typeof ANSWER_MODES)[number];

export const DEFAULT_ANSWER_MODE: AnswerMode = 'auto';

/** What each mode does, in a line (CLI help, the page's titles). */
export const ANSWER_MODE_HELP: Record<AnswerMode, string> = {
  auto: 'one request with the schema and its stored values; more only when the result calls for it; the tools when that does not settle it or the schema is large',
  agent: 'plans, looks up columns and values with tools, runs SQL, explains',
  direct: 'one request with the plain schema, no tools; the SQL still runs, is checked and repaired once',
};

export function isAnswerMode(text: string | undefined): text is AnswerMode {
  return (ANSWER_MODES as readonly string[]).includes(text ?? '');
}

/**
 * The run of one question in the given mode; every mode reads the agent's options. Every run is
 * within its answer budget (answer-budget.ts: `options.answerLimits`, else the defaults).
 */
export function runAnswer(mode: AnswerMode, options: RunAgentOptions): AsyncGenerator<AgentEvent> {
  return withAnswerBudget(options.answerLimits ?? answerLimits(), options, (o) => runMode(mode, o));
}

function runMode(mode: AnswerMode, options: RunAgentOptions): AsyncGenerator<AgentEvent> {
  if (mode === 'auto') return runAuto(options);
  if (mode === 'agent') return runAgent(options);
  return runDirect({
    question: options.question,
    hints: options.hints,
    model: options.model,
    privacy: options.privacy,
    tools: options.tools,
    schema: options.schema,
    signal: options.signal,
    finalRows: options.finalRows,
    toolTimeoutMs: options.toolTimeoutMs,
    now: options.now,
    history: options.history,
  });
}
