// A recorded relay run replayed: the model's replies go to the scripted model, and the run must
// end on the recorded final SQL (or an error when there was none) after the recorded number of
// model requests, with every reply used. Shared by the SQLite and PostgreSQL replays.
import { expect } from 'vitest';
import { runAnswer, type AnswerMode } from '../core/agent/answer-mode';
import type { RunAgentOptions } from '../core/agent/loop';
import type { AgentEvent } from '../core/agent/events';
import { createScriptedModel, type ScriptedTurn } from '../core/llm/scripted';

export interface RecordedRun {
  mode: AnswerMode;
  finalSql: string | null;
  modelRequests: number;
  turns: ScriptedTurn[];
}

export async function expectEndsAsRecorded(
  r: RecordedRun,
  options: Omit<RunAgentOptions, 'model' | 'askUser'>,
): Promise<void> {
  const model = createScriptedModel(r.turns, { pieceSize: 400 });
  const events: AgentEvent[] = [];
  for await (const e of runAnswer(r.mode, { ...options, model, askUser: async (ask) => ask.options[0] }))
    events.push(e);
  const last = events.at(-1)!;
  if (r.finalSql === null) expect(last.type).toBe('error');
  else expect(last).toMatchObject({ type: 'final', sql: r.finalSql });
  expect(events.filter((e) => e.type === 'usage')).toHaveLength(r.modelRequests);
  expect(model.remaining).toBe(0);
}
