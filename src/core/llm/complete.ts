// The whole turn of a model stream, for callers that do not show it as it is written (the
// explanation, Test connection, tests). The deltas can still be watched through `onDelta`.

import { LlmError, type ChatDelta, type ChatModel, type ChatRequest, type ChatResponse } from './types';

export async function completeChat(
  model: ChatModel,
  request: ChatRequest,
  onDelta?: (delta: ChatDelta) => void,
): Promise<ChatResponse> {
  let response: ChatResponse | null = null;
  for await (const part of model.stream(request)) {
    if (part.type === 'finish') response = part.response;
    else if (part.type !== 'usage') onDelta?.(part);
  }
  if (!response)
    throw new LlmError('llm_bad_response', `The reply from ${model.provider} ended before it was finished.`);
  return response;
}
