// One tool-less model call whose reply is a query: the SQL read as Direct reads it (a fenced block
// or the bare text, first statement only), with the call's usage. Fix and Optimize use it.

import { sqlFromReply } from '../agent/direct-prompt';
import { completeChat } from '../llm/complete';
import type { ChatMessage, ChatModel, Usage } from '../llm/types';

export interface SqlReply {
  /** Empty when the reply holds no SQL. */
  sql: string;
  text: string;
  usage: Usage | null;
}

export async function sqlFromModel(model: ChatModel, messages: ChatMessage[], signal?: AbortSignal): Promise<SqlReply> {
  const response = await completeChat(model, { messages: [...messages], temperature: 0, maxTokens: 1200, signal });
  return { sql: sqlFromReply(response.text), text: response.text, usage: response.usage };
}

/** Two statements that differ only in spacing, case of keywords aside, and a final `;`. */
export function sameSqlText(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/;\s*$/, '').replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}
