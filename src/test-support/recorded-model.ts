// A scripted model that keeps every request it is sent (after any privacy gate wrapped around it),
// for tests that read what a task or run asked the model.

import { createScriptedModel, type ScriptedTurn } from '../core/llm/scripted';
import type { ChatModel, ChatRequest } from '../core/llm/types';

export function recordedModel(turns: ScriptedTurn[]): {
  model: ChatModel;
  requests: ChatRequest[];
  /** Every message sent so far, as one text. */
  sent: () => string;
} {
  const inner = createScriptedModel(turns);
  const requests: ChatRequest[] = [];
  const model: ChatModel = { ...inner, stream: (req) => (requests.push(req), inner.stream(req)) };
  return { model, requests, sent: () => JSON.stringify(requests.map((r) => r.messages)) };
}
