// A recorded relay run replayed: the model's replies go to the scripted model, and the run must
// end on the recorded final SQL (or an error when there was none) after the recorded number of
// model requests, with every reply used. Shared by the SQLite and PostgreSQL replays.
import { expect } from 'vitest';
import { runAnswer, type AnswerMode } from '../core/agent/answer-mode';
import type { RunAgentOptions } from '../core/agent/loop';
import type { AgentEvent } from '../core/agent/events';
import { createScriptedModel, type ScriptedTurn } from '../core/llm/scripted';
import { sqlFromReply } from '../core/agent/direct-prompt';
import { hasVerdictLine, parseExplanation } from '../core/agent/explain';
import { NO_EXPLANATION } from '../core/agent/answer-evidence';

export interface RecordedRun {
  mode: AnswerMode;
  finalSql: string | null;
  modelRequests: number;
  turns: ScriptedTurn[];
}

/**
 * How a recording ends today. Auto and Direct recorded before issue 37 rewrote the query after
 * every check that was unsure of it; today an unsure check acts only when the result gave a reason
 * to check (one-shot.ts), and otherwise ends the run with its words as a note. Such a run ends at
 * that check, on the SQL it saw, with the later replies unused — told by the reasons the replay's
 * own check request gave (`events`): the recording's answer replies carry no explanation, so every
 * check is still asked, and one asked for that alone has nothing to act on. Every other recording
 * ends as recorded, its replies used in order.
 */
export function endUnderToday(
  r: RecordedRun,
  events: readonly AgentEvent[],
): { finalSql: string | null; modelRequests: number; verdict?: 'unsure' } {
  if (r.mode !== 'auto' && r.mode !== 'direct') return r;
  const requests = events.filter((e) => e.type === 'usage');
  for (let i = 1; i < r.turns.length - 1; i++) {
    const check = isCheckReply(r.turns[i].text) ? parseExplanation(r.turns[i].text ?? '') : null;
    if (check?.verdict !== 'unsure' || !check.problem) continue;
    const asked = requests[i];
    if (asked?.type === 'usage' && asked.why !== `a check: ${NO_EXPLANATION}`) return r;
    const answered = r.turns.slice(0, i).findLast((t) => !isCheckReply(t.text) && sqlFromReply(t.text ?? ''));
    return { finalSql: sqlFromReply(answered!.text ?? ''), modelRequests: i + 1, verdict: 'unsure' };
  }
  return r;
}

const isCheckReply = (text: string | undefined) => hasVerdictLine(text ?? '');

export async function expectEndsAsRecorded(
  r: RecordedRun,
  options: Omit<RunAgentOptions, 'model' | 'askUser'>,
): Promise<AgentEvent[]> {
  const model = createScriptedModel(r.turns, { pieceSize: 400 });
  const events: AgentEvent[] = [];
  for await (const e of runAnswer(r.mode, { ...options, model, askUser: async (ask) => ask.options[0] }))
    events.push(e);
  const last = events.at(-1)!;
  const end = endUnderToday(r, events);
  if (end.finalSql === null) expect(last.type).toBe('error');
  else
    expect(last).toMatchObject({ type: 'final', sql: end.finalSql, ...(end.verdict ? { verdict: end.verdict } : {}) });
  expect(events.filter((e) => e.type === 'usage')).toHaveLength(end.modelRequests);
  // Each request took one reply: the rest are the ones a run ending earlier leaves.
  expect(model.remaining).toBe(r.turns.length - end.modelRequests);
  return events;
}
