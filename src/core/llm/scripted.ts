// The scripted model: replays assistant turns written in advance. Tests use it, and so does the
// "scripted demo" (the tools run live, the page says no model is answering). It streams each
// turn in small deltas so the page's streaming path runs exactly as with a real provider.
// There is exactly one scripted model in the codebase: this one.

import { abortedError } from './errors';
import { abortableSleep } from './retry';
import { LlmError, type ChatModel, type ChatRequest, type ChatStreamPart, type ToolCall } from './types';
import { estimateUsage } from './usage';

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  id?: string;
}

export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
}

export interface ScriptedOptions {
  name?: string;
  /** Pause between deltas, so a person can watch the demo stream (0 in tests). */
  delayMs?: number;
  /** Characters per delta. */
  pieceSize?: number;
}

export interface ScriptedModel extends ChatModel {
  /** Turns not yet replayed. */
  readonly remaining: number;
  /** Start again from the first turn (a new demo run). */
  reset(): void;
}

function split(text: string, size: number): string[] {
  const chars = Array.from(text); // never cut a surrogate pair
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

export function createScriptedModel(turns: readonly ScriptedTurn[], options: ScriptedOptions = {}): ScriptedModel {
  const size = Math.max(1, options.pieceSize ?? 6);
  const delay = options.delayMs ?? 0;
  let next = 0;

  async function* stream(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const signal = request.signal;
    if (signal?.aborted) throw abortedError();
    const turn = turns[next];
    if (!turn) {
      throw new LlmError(
        'llm_bad_response',
        `The scripted model has no more turns (it had ${turns.length}); the script ended before the run did.`,
      );
    }
    next += 1;
    const paced = async <T>(part: T): Promise<T> => {
      if (delay > 0) await abortableSleep(delay, signal);
      if (signal?.aborted) throw abortedError();
      return part;
    };
    const text = turn.text ?? '';
    for (const piece of split(text, size)) yield await paced({ type: 'text', text: piece });
    const toolCalls: ToolCall[] = [];
    for (const [index, c] of (turn.toolCalls ?? []).entries()) {
      const call = {
        id: c.id ?? `scripted_${next}_${index}`,
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
      };
      toolCalls.push(call);
      yield await paced({ type: 'tool_call', index, id: call.id, name: call.name });
      for (const piece of split(call.arguments, size))
        yield await paced({ type: 'tool_call', index, argumentsDelta: piece });
    }
    const usage = await estimateUsage(request.messages, request.tools, text, toolCalls);
    yield { type: 'usage', usage };
    yield {
      type: 'finish',
      response: { text, toolCalls, usage, finishReason: toolCalls.length ? 'tool_calls' : 'stop' },
    };
  }

  return {
    provider: 'scripted',
    model: options.name ?? 'scripted',
    supportsTools: true,
    stream,
    get remaining() {
      return turns.length - next;
    },
    reset() {
      next = 0;
    },
  };
}
