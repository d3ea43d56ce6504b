// Folds OpenAI-style `chat.completion.chunk` objects into one turn. Tool calls arrive as deltas
// keyed by `index`: id and name in the first piece, arguments in many pieces (cut anywhere, even
// mid-JSON). Servers differ: some omit `index` (Ollama sends whole calls), some repeat the id on
// every piece, some send usage in a final chunk with no choices.

import type { ChatDelta, ChatResponse, ToolCall, Usage } from './types';

interface ToolCallDeltaJson {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string | Record<string, unknown> };
}

interface ChoiceJson {
  delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ToolCallDeltaJson[] };
  message?: { content?: string | null; tool_calls?: ToolCallDeltaJson[] };
  finish_reason?: string | null;
}

export interface CompletionJson {
  choices?: ChoiceJson[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  } | null;
  error?: unknown;
}

let idCounter = 0;
/** Ids for servers that give none: unique within the page, which is all a tool result needs. */
export function generatedCallId(): string {
  idCounter += 1;
  return `call_${Date.now().toString(36)}_${idCounter}`;
}

export function mapFinishReason(reason: string | null | undefined): ChatResponse['finishReason'] {
  switch (reason) {
    case 'stop':
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
    case 'tool_use':
      return 'tool_calls';
    case 'length':
    case 'max_tokens':
      return 'length';
    default:
      return 'other';
  }
}

export class OpenAiTurn {
  private text = '';
  private readonly calls: { id?: string; name: string; arguments: string }[] = [];
  private finish: string | null = null;
  private usage: Usage | null = null;

  /** Applies one chunk and returns the deltas to pass on, in order. */
  apply(chunk: CompletionJson): ChatDelta[] {
    const out: ChatDelta[] = [];
    if (chunk.usage && typeof chunk.usage.prompt_tokens === 'number') {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens;
      this.usage = {
        inputTokens: chunk.usage.prompt_tokens,
        outputTokens: chunk.usage.completion_tokens ?? 0,
        ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
        estimated: false,
      };
    }
    const choice = chunk.choices?.[0];
    if (!choice) return out;
    const delta = choice.delta ?? choice.message;
    if (delta?.content) {
      this.text += delta.content;
      out.push({ type: 'text', text: delta.content });
    }
    for (const [position, piece] of (delta?.tool_calls ?? []).entries()) {
      const d = this.applyToolCall(piece, position);
      // Empty pieces (an "arguments": "" opener after the name was sent) carry nothing to show.
      if (d.type === 'tool_call' && (d.id || d.name || d.argumentsDelta)) out.push(d);
    }
    if (choice.finish_reason) this.finish = choice.finish_reason;
    return out;
  }

  private applyToolCall(piece: ToolCallDeltaJson, position: number): ChatDelta {
    let index = piece.index;
    if (index === undefined) {
      // No index: a new id means a new call; otherwise it continues the last one (or is the nth of a batch).
      const known = piece.id ? this.calls.findIndex((c) => c.id === piece.id) : -1;
      if (known >= 0) index = known;
      else if (piece.id || !this.calls.length || position > 0) index = this.calls.length;
      else index = this.calls.length - 1;
    }
    const call = (this.calls[index] ??= { name: '', arguments: '' });
    const delta: ChatDelta = { type: 'tool_call', index };
    if (piece.id && !call.id) {
      call.id = piece.id;
      delta.id = piece.id;
    }
    const name = piece.function?.name;
    if (name && !call.name) {
      call.name = name;
      delta.name = name;
    }
    const args = piece.function?.arguments;
    if (args !== undefined && args !== null) {
      // Ollama's native endpoint sends arguments as an object; the /v1 one as text. Accept both.
      const text = typeof args === 'string' ? args : JSON.stringify(args);
      if (text) {
        call.arguments += text;
        delta.argumentsDelta = text;
      }
    }
    return delta;
  }

  result(): ChatResponse {
    const toolCalls: ToolCall[] = [];
    for (const c of this.calls) {
      if (!c) continue; // sparse indexes from an odd server
      toolCalls.push({ id: c.id ?? generatedCallId(), name: c.name, arguments: c.arguments });
    }
    let finishReason = mapFinishReason(this.finish);
    // Ollama and some llama.cpp builds say "stop" even when they called a tool.
    if (toolCalls.length && finishReason === 'stop') finishReason = 'tool_calls';
    if (!this.finish && toolCalls.length) finishReason = 'tool_calls';
    else if (!this.finish) finishReason = 'stop';
    return { text: this.text, toolCalls, usage: this.usage, finishReason };
  }
}
