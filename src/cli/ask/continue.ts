// `dowser ask --continue <transcript.json>` (issue 23): the thread a transcript ends, so the new
// question follows up on it — the transcript's own earlier turns (`history`), then its question
// and final answer. Read with zod: a file from anywhere is untrusted, and only what the thread
// needs is taken from it.

import { z } from 'zod';
import { priorTurnOf, type PriorTurn } from '../../core/agent/thread';
import type { AgentEvent } from '../../core/agent/events';
import { decodeText } from '../../core/descriptions/bird-csv';
import { UsageError, type CliIo } from '../command';

const cell = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .transform((v) => (typeof v === 'boolean' ? Number(v) : v));
const priorTurn = z.object({
  question: z.string().max(10_000),
  sql: z.string().max(100_000).nullable(),
  columns: z.array(z.string().max(1_000)).max(1_000),
  totalRows: z.number().nullable(),
  rows: z.array(z.array(cell).max(1_000)).max(20).optional(),
  correction: z.string().max(10_000).optional(),
});
const transcript = z.object({
  question: z.string().max(10_000),
  history: z.array(priorTurn).max(200).optional(),
  events: z.array(z.looseObject({ type: z.string() })).max(100_000),
});

/** The final event as the thread reads it; anything else in the events is not looked at. */
const finalEvent = z.object({
  type: z.literal('final'),
  sql: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(cell)),
  totalRows: z.number().nullable(),
});

export function threadOfTranscript(io: CliIo, path: string): PriorTurn[] {
  let json: unknown;
  try {
    json = JSON.parse(decodeText(io.readFile(path)));
  } catch (e) {
    throw new UsageError(`--continue: cannot read "${path}" as JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = transcript.safeParse(json);
  if (!parsed.success)
    throw new UsageError(
      `--continue: "${path}" is not a transcript of dowser ask --transcript (${parsed.error.issues[0].message})`,
    );
  const finals = parsed.data.events.flatMap((e) => {
    const f = finalEvent.safeParse(e);
    return f.success
      ? [{ ...f.data, explanation: null, verdict: 'unsure', truncated: false, step: 0, at: 0 } as AgentEvent]
      : [];
  });
  return [...(parsed.data.history ?? []), priorTurnOf(parsed.data.question, finals)];
}
