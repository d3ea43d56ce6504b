// One model call whose text deltas are yielded while it is in flight, shared by the agent run
// and the step check. The provider pushes deltas through a callback and a generator cannot yield
// from inside one, so a queue sits between them: the callback fills it and wakes the generator,
// which drains it until the call settles. Pieces that arrive together are joined into one event
// to keep the stream short.

import type { ChatDelta, ChatModel, ChatRequest, ChatResponse } from '../llm/types';
import { raceAbort } from './abort';
import type { AgentEvent } from './events';

export async function* streamChat(
  model: ChatModel,
  request: ChatRequest,
  delta: (text: string) => AgentEvent,
  signal?: AbortSignal,
): AsyncGenerator<AgentEvent, ChatResponse> {
  const pending: string[] = [];
  let wake: (() => void) | null = null;
  let settled = false;
  const onDelta = (d: ChatDelta) => {
    if (d.type !== 'text' || !d.text) return;
    pending.push(d.text);
    wake?.();
  };
  const call = raceAbort(model.chat({ ...request, signal }, onDelta), signal);
  const settle = () => {
    settled = true;
    wake?.();
  };
  call.then(settle, settle); // the rejection itself is rethrown by the `await call` below
  for (;;) {
    if (pending.length) {
      yield delta(pending.splice(0).join(''));
      continue;
    }
    if (settled) break;
    // Checking the queue and parking here happen in one synchronous stretch, so no delta can slip between them.
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = null;
  }
  return await call;
}
