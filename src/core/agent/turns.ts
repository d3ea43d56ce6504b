// One model reply as the loop sees it, whichever protocol the model speaks: the thought and the
// calls it makes. Native tool calls carry raw argument text, parsed here with JSON.parse; the
// text protocol goes through the action parser. Unreadable calls keep their error for the
// observation, so a malformed action costs a turn, never the run.

import type { ChatResponse } from '../llm/types';
import { parseAction } from './action-parser';

export type TurnCall =
  | { id?: string; name: string; args: Record<string, unknown> }
  | { id?: string; name: string; error: string };

export interface AgentTurn {
  thought: string;
  calls: TurnCall[];
  /** Why there is no call, when there is none. */
  noAction?: string;
}

function nativeArgs(name: string, raw: string): { args: Record<string, unknown> } | { error: string } {
  if (raw.trim() === '') return { args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    return {
      error: `The arguments of ${name} are not valid JSON (${e instanceof Error ? e.message : 'parse error'}).`,
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { error: `The arguments of ${name} must be a JSON object.` };
  return { args: parsed as Record<string, unknown> };
}

export function nativeTurn(response: ChatResponse): AgentTurn {
  const thought = response.text.trim();
  const calls = response.toolCalls.map((c) => ({ id: c.id, name: c.name, ...nativeArgs(c.name, c.arguments) }));
  return calls.length
    ? { thought, calls }
    : { thought, calls, noAction: 'No function was called. Call one of the functions (one per turn).' };
}

export function textTurn(response: ChatResponse): AgentTurn {
  const parsed = parseAction(response.text);
  if ('action' in parsed)
    return { thought: parsed.thought, calls: [{ name: parsed.action.name, args: parsed.action.args }] };
  // A malformed Action line is a call that went wrong; no Action line at all is no call.
  if (parsed.kind === 'bad_action')
    return { thought: parsed.thought, calls: [{ name: '(unreadable)', error: parsed.error }] };
  return { thought: parsed.thought, calls: [], noAction: parsed.error };
}

/** The text-protocol reply as kept in the conversation: what the model wrote, up to any observation it invented. */
export function textReplyForHistory(text: string): string {
  const cut = text.search(/^[ \t*_]*observation[ \t*_]*:/im);
  return (cut >= 0 ? text.slice(0, cut) : text).trimEnd();
}
