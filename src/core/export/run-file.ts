// The shape of a run file (`dowser-run/1`), as zod: exports are typed by it and imports parsed
// with it, so a file that opens is a file the page can show. Cells are JSON values (blobs as
// 0x… hex text, 64-bit integers as digit strings, as the export writes them).

import { z } from 'zod';

export const RUN_FORMAT = 'dowser-run/1';

/** Deeper nesting than this in a tool call's arguments is refused (no model needs it). */
export const MAX_ARGS_DEPTH = 64;
const MAX_TEXT = 10_000_000;

const text = z.string().max(MAX_TEXT);
const count = z.number().int().min(0);
const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const rows = z.array(z.array(cell));
const plan = z.object({
  sub_questions: z.array(z.object({ text, tables: z.array(z.object({ table: text, columns: z.array(text) })) })),
});
const planProblem = z.object({
  subQuestion: count,
  table: text,
  column: text.optional(),
  message: text,
  suggestions: z.array(text),
});
const usage = z.object({
  inputTokens: count,
  outputTokens: count,
  cachedInputTokens: count.optional(),
  estimated: z.boolean(),
});
// Runs exported before cached tokens were counted have none in their totals.
const totals = z.object({
  inputTokens: count,
  outputTokens: count,
  cachedInputTokens: count.default(0),
  estimated: z.boolean(),
});

/** Nesting depth of a JSON value, without recursion (a crafted file may nest 100,000 deep). */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d > max) max = d;
    if (max > stopAt) return max;
    if (v && typeof v === 'object') for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

const args = z.unknown().refine((v) => jsonDepth(v, MAX_ARGS_DEPTH) <= MAX_ARGS_DEPTH, {
  message: `arguments nested deeper than ${MAX_ARGS_DEPTH} levels`,
});

const at = { step: count, at: z.number() };
export const runEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), turn: count, maxTurns: count, ...at }),
  z.object({ type: z.literal('route'), path: z.enum(['grounded', 'agent']), reason: text, ...at }),
  z.object({
    type: z.literal('plan'),
    plan,
    problems: z.array(planProblem),
    confirmed: z.boolean().optional(),
    edited: z.boolean().optional(),
    ...at,
  }),
  z.object({ type: z.literal('plan_waiting'), plan, ...at }),
  z.object({
    type: z.literal('ask'),
    question: text,
    options: z.array(text),
    callId: text.optional(),
    defaultAnswer: text.optional(),
    ...at,
  }),
  z.object({ type: z.literal('thought_delta'), text, ...at }),
  z.object({ type: z.literal('thought'), text, ...at }),
  z.object({ type: z.literal('action'), tool: text, args, callId: text.optional(), ...at }),
  z.object({
    type: z.literal('observation'),
    tool: text,
    text,
    ok: z.boolean(),
    ms: z.number().min(0),
    callId: text.optional(),
    ...at,
  }),
  z.object({ type: z.literal('sql'), sql: text, ok: z.boolean(), summary: text, ...at }),
  z.object({
    type: z.literal('final'),
    sql: text,
    columns: z.array(text),
    rows,
    totalRows: count.nullable(),
    truncated: z.boolean(),
    explanation: text.nullable(),
    verdict: z.enum(['match', 'mismatch', 'unsure', 'unchecked']),
    note: text.optional(),
    unverified: z.boolean().optional(),
    ...at,
  }),
  z.object({
    type: z.literal('step_preview'),
    subQuestion: count,
    sql: text,
    columns: z.array(text),
    rows,
    totalRows: count.nullable(),
    truncated: z.boolean(),
    unverified: z.boolean().optional(),
    ...at,
  }),
  z.object({ type: z.literal('error'), code: text, message: text, ...at }),
  z.object({
    type: z.literal('usage'),
    usage: usage.nullable(),
    total: totals,
    ms: z.number().min(0),
    phase: z.enum(['agent', 'explain']),
    why: text.optional(),
    ...at,
  }),
]);

/** An earlier turn of the run's conversation (issue 23): its question, hints and events. */
const runTurn = z.object({
  question: text,
  hints: text,
  status: text,
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  events: z.array(runEvent).max(100_000),
});

export const runFile = z.object({
  format: z.literal(RUN_FORMAT),
  question: text,
  hints: text,
  database: text,
  provider: text,
  model: text,
  status: text,
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  events: z.array(runEvent).max(100_000),
  /** The conversation's turns before this one, oldest first (absent: a question on its own). */
  thread: z.array(runTurn).max(200).optional(),
});

export type RunFile = z.infer<typeof runFile>;
export type RunFileEvent = z.infer<typeof runEvent>;
