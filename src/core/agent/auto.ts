// Auto, the default answer path (issue 22): a grounded single request first — every column with
// its type, keys and stored values as the privacy level allows (auto-prompt.ts) — then more only
// when running the query calls for it (one-shot.ts: a repair, a value that is not stored, an empty
// result, a check that objects), and the agent's tools only when that does not settle it, the
// agent starting from what was learned. A schema too large for one request, or a plan the person
// confirmed, goes to the agent at once. A `route` event says which path and why, so the page, the
// CLI and the evaluator show it.
//
// Measured reasons (issue 22): on databases of up to ~15 tables a capable model answered as well
// from one request as with the tools, at a fourteenth of the tokens; the tools pay off where a
// schema is too wide to show with its values, and where a value is not where the model guessed.

import { localDate } from '../prompt/today';
import { withPrivacy, type PrivacyPolicy, runPolicy } from '../privacy/disclose';
import type { FullTables, Grounding, GroundingDetail } from '../prompt/grounded-schema';
import type { QuestionLink } from '../retrieval/linker';
import { tableAliases } from '../sql/compared-literals';
import type { Schema } from '../types';
import { valueLinksWithEvidence } from './link-hints';
import type { PriorTurn } from './thread';
import { estimateTokens } from '../prompt/schema-text';
import { autoDatabaseText, autoPrompt } from './auto-prompt';
import { addUsage, type AgentEvent, type RoutePath } from './events';
import { runAgent, type RunAgentOptions } from './loop';
import { runOneShot, type Handover } from './one-shot';

/**
 * Above this estimate of the grounded schema (tokens of the database block of the first request,
 * in full detail, else compact), Auto starts with the agent, whose tools look columns and values
 * up instead of showing them all. Every Spider dev database fits in full (largest 941, mean 339),
 * and so do the demo, Chinook and Sakila (1,545, 1,038, 1,190); Northwind fits compact (3,605
 * full, 1,785 compact); four of BIRD's eleven dev schemas do not even without values, with their
 * column descriptions (decision 060).
 */
export const AUTO_MAX_SCHEMA_TOKENS = 2000;

type SchemaInput = Omit<Parameters<typeof autoDatabaseText>[0], 'detail'>;

/**
 * The grounded database block's size in the detail Auto would use: full when it fits, else
 * compact; a follow-up in a conversation (`followUp`) is compact: the thread's SQL already names
 * what the conversation is about, and a value it compares with is checked after the query runs.
 */
export function autoSchemaTokens(
  input: SchemaInput,
  followUp = false,
): { tokens: number; detail: GroundingDetail; fullTables?: FullTables } {
  const { fullTables, ...rest } = input;
  const full = followUp ? Infinity : estimateTokens(autoDatabaseText({ ...rest, detail: 'full' }));
  if (full <= AUTO_MAX_SCHEMA_TOKENS) return { tokens: full, detail: 'full' };
  // A follow-up's own tables in full while that fits; else compact throughout.
  if (fullTables?.size) {
    const focused = estimateTokens(autoDatabaseText({ ...rest, detail: 'compact', fullTables }));
    if (focused <= AUTO_MAX_SCHEMA_TOKENS) return { tokens: focused, detail: 'compact', fullTables };
  }
  return { tokens: estimateTokens(autoDatabaseText({ ...rest, detail: 'compact' })), detail: 'compact' };
}

/**
 * A follow-up's tables (issue 37, item 6): those the conversation's SQL reads and those holding
 * the values its question names — shown with their stored values while the rest is compact.
 */
export function followUpTables(
  schema: Schema,
  history: readonly PriorTurn[],
  links: readonly QuestionLink[] = [],
): FullTables {
  const out = new Set<string>();
  for (const turn of history) if (turn.sql) for (const t of tableAliases(turn.sql, schema).values()) out.add(t);
  const names = new Set(schema.tables.map((t) => t.name));
  for (const l of valueLinksWithEvidence(links)) if (names.has(l.table)) out.add(l.table);
  return out;
}

const count = (n: number) => n.toLocaleString('en-US');

export async function* runAuto(options: RunAgentOptions): AsyncGenerator<AgentEvent> {
  const now = options.now ?? Date.now;
  const route = (path: RoutePath, reason: string, step = 0): AgentEvent => ({
    type: 'route',
    path,
    reason,
    step,
    at: now(),
  });
  if (options.confirmedPlan) {
    yield route('agent', 'the plan you confirmed is carried out by the agent.');
    yield* runAgent(options);
    return;
  }
  const policy: PrivacyPolicy = runPolicy(options.privacy ?? 'full', options.question, options.history);
  // Without statistics the grounded request still has the schema; the evidence checks still run.
  const grounding: Grounding | null = options.tools.grounding
    ? await options.tools.grounding(options.signal).catch(() => null)
    : null;
  if (options.signal?.aborted) {
    yield { type: 'error', code: 'aborted', message: 'Stopped.', step: 0, at: now() };
    return;
  }
  const followUp = !!options.history?.length;
  const { tokens, detail, fullTables } = autoSchemaTokens(
    {
      schema: options.schema,
      grounding,
      privacy: policy,
      ...(followUp ? { fullTables: followUpTables(options.schema, options.history ?? [], options.links) } : {}),
    },
    followUp,
  );
  if (tokens > AUTO_MAX_SCHEMA_TOKENS) {
    yield route(
      'agent',
      `the schema with its values is about ${count(tokens)} tokens, above the ${count(AUTO_MAX_SCHEMA_TOKENS)} one request carries: the agent looks columns and values up with its tools.`,
    );
    yield* runAgent(options);
    return;
  }
  yield route(
    'grounded',
    detail === 'full'
      ? `one request with every column and its stored values, about ${count(tokens)} tokens; more only if the result calls for them.`
      : followUp
        ? `a follow-up: one request with every column, ${fullTables?.size ? 'the stored values of the tables this conversation reads or names, elsewhere ' : ''}the values of columns that have few (the conversation's SQL says the rest), about ${count(tokens)} tokens; more only if the result calls for them.`
        : `one request with every column and the values of those with few (in full it would be over ${count(AUTO_MAX_SCHEMA_TOKENS)} tokens), about ${count(tokens)} tokens; more only if the result calls for them.`,
  );
  yield* runOneShot({
    question: options.question,
    hints: options.hints,
    model: withPrivacy(options.model, policy),
    policy,
    tools: options.tools,
    schema: options.schema,
    signal: options.signal,
    messages: autoPrompt({
      question: options.question,
      hints: options.hints,
      schema: options.schema,
      grounding,
      links: options.links,
      privacy: policy,
      userExamples: options.userExamples,
      detail,
      fullTables,
      history: options.history,
      today: options.today ?? localDate(new Date()),
    }),
    evidence: true,
    handOver: (h) => continueWithAgent(options, h),
    finalRows: options.finalRows ?? 20,
    toolTimeoutMs: options.toolTimeoutMs,
    now,
    history: options.history,
  });
}

/** The agent, told what was tried; its steps and token totals continue the run's. */
async function* continueWithAgent(options: RunAgentOptions, h: Handover): AsyncGenerator<AgentEvent> {
  for await (const e of runAgent({ ...options, carryOver: h.carryOver })) {
    const step = e.step + h.step;
    if (e.type === 'usage') {
      const total = addUsage(
        { ...h.total },
        {
          inputTokens: e.total.inputTokens,
          outputTokens: e.total.outputTokens,
          cachedInputTokens: e.total.cachedInputTokens,
          estimated: e.total.estimated,
        },
      );
      yield { ...e, step, total };
    } else yield { ...e, step };
  }
}
