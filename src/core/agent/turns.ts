// One model reply as the loop sees it, whichever protocol the model speaks: the thought and the
// calls it makes. Native tool calls carry raw argument text, parsed here with JSON.parse; the
// text protocol goes through the action parser. Unreadable calls keep their error for the
// observation, so a malformed action costs a turn, never the run.

import type { ChatResponse } from '../llm/types';
import { parseActions, type ParsedAction } from './action-parser';
import { parseToolArgs } from './lenient-json';

export type TurnCall =
  | { id?: string; name: string; args: Record<string, unknown> }
  | { id?: string; name: string; error: string };

export interface AgentTurn {
  thought: string;
  calls: TurnCall[];
  /** Why there is no call, when there is none. */
  noAction?: string;
}

export function nativeTurn(response: ChatResponse): AgentTurn {
  const thought = response.text.trim();
  const calls: TurnCall[] = response.toolCalls.map((c) => ({
    id: c.id,
    name: c.name,
    ...parseToolArgs(c.name, c.arguments),
  }));
  if (calls.length) return { thought, calls };
  // No native call, but the call written as text (a <tool_call> block or an Action line): a local
  // server that did not parse the model's template. Read it rather than waste the turn.
  const written = parseActions(response.text);
  if (written.actions.length) return { thought: written.thought, calls: written.actions.map(toCall) };
  return { thought, calls, noAction: 'No function was called. Call one of the functions (one per turn).' };
}

const toCall = (a: ParsedAction): TurnCall =>
  'args' in a ? { name: a.name, args: a.args } : { name: a.name, error: a.error };

export function textTurn(response: ChatResponse): AgentTurn {
  const parsed = parseActions(response.text);
  if (!parsed.actions.length) return { thought: parsed.thought, calls: [], noAction: parsed.noAction };
  return { thought: parsed.thought, calls: parsed.actions.map(toCall) };
}
/** The text-protocol reply as kept in the conversation: what the model wrote, up to any observation it invented. */
export function textReplyForHistory(text: string): string {
  const cut = text.search(/^[ \t*_]*observation[ \t*_]*:/im);
  return (cut >= 0 ? text.slice(0, cut) : text).trimEnd();
}
