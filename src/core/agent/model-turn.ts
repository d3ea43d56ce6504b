// One model call whose text is yielded as `thought_delta` events while it is written, shared by
// the agent run and the step check; resolves to the whole turn.

import { LlmError, type ChatModel, type ChatRequest, type ChatResponse } from '../llm/types';
import { abortable } from './abort';
import type { AgentEvent } from './events';

export async function* streamTurn(
  model: ChatModel,
  request: ChatRequest,
  delta: (text: string) => AgentEvent,
  signal?: AbortSignal,
): AsyncGenerator<AgentEvent, ChatResponse> {
  let response: ChatResponse | null = null;
  for await (const part of abortable(model.stream({ ...request, signal }), signal)) {
    if (part.type === 'text' && part.text) yield delta(part.text);
    else if (part.type === 'finish') response = part.response;
  }
  if (!response)
    throw new LlmError('llm_bad_response', `The reply from ${model.provider} ended before it was finished.`);
  return response;
}
