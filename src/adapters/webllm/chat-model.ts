// ChatModel over WebLLM: a model that runs inside the page on WebGPU. @mlc-ai/web-llm is imported
// only when a model is chosen (it is large, and most visitors never use it); the weights are
// downloaded once with progress and then cached by the browser (WebLLM keeps them in the Cache API).
// Small local models do not do native tool calling reliably, so this speaks the agent's text
// protocol only (supportsTools: false). WebLLM's API is OpenAI's chat.completions, so streamed
// chunks are folded with the same OpenAiTurn the HTTP providers use.

import { abortedError } from '../../core/llm/errors';
import { OpenAiTurn, type CompletionJson } from '../../core/llm/openai-stream';
import type { ChatMessage, ChatModel, ChatRequest, ChatStreamPart } from '../../core/llm/types';
import { estimateUsage } from '../../core/llm/usage';
import { webLlmError } from './errors';

export interface WebLlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface WebLlmRequest {
  messages: WebLlmMessage[];
  stream: true;
  stream_options: { include_usage: boolean };
  stop?: string[];
  temperature?: number;
  max_tokens?: number;
}

/** The part of WebLLM's MLCEngine this adapter uses (tests pass a fake). */
export interface WebLlmEngine {
  chat: { completions: { create(request: WebLlmRequest): Promise<AsyncIterable<CompletionJson>> } };
  interruptGenerate(): void | Promise<void>;
}

export interface WebLlmProgress {
  /** 0..1 over download and GPU upload. */
  progress: number;
  /** WebLLM's own line, e.g. "Fetching param cache[3/20]: 250MB fetched…". */
  text: string;
  elapsedMs: number;
}

export type LoadWebLlmEngine = (
  model: string,
  onReport: (p: WebLlmProgress) => void,
  contextWindowSize: number,
) => Promise<WebLlmEngine>;

export interface WebLlmOptions {
  model: string;
  onProgress?: (p: WebLlmProgress) => void;
  /**
   * Tokens of context. WebLLM's prebuilt small models default to 4096; the agent's prompt alone
   * is about 2.5k tokens and each turn adds an observation, so 4096 runs out mid-question.
   */
  contextWindowSize?: number;
  /** How the engine is made; default: dynamic import of @mlc-ai/web-llm and CreateMLCEngine. */
  loadEngine?: LoadWebLlmEngine;
}

export const DEFAULT_CONTEXT_WINDOW = 8192;

const loadWithWebLlm: LoadWebLlmEngine = async (model, onReport, contextWindowSize) => {
  const webllm = await import('@mlc-ai/web-llm');
  const engine = await webllm.CreateMLCEngine(
    model,
    {
      initProgressCallback: (r) =>
        onReport({ progress: r.progress, text: r.text, elapsedMs: Math.round(r.timeElapsed * 1000) }),
    },
    { context_window_size: contextWindowSize },
  );
  // MLCEngine's create() is overloaded (streaming or not); this adapter only ever streams.
  return engine as unknown as WebLlmEngine;
};

/**
 * WebLLM's chat templates want: one system message first, the rest alternating, the last from
 * the user. Tool results (native mode only, never sent here in practice) become user text, and
 * neighbours with the same role are merged.
 */
export function toWebLlmMessages(messages: readonly ChatMessage[]): WebLlmMessage[] {
  const out: WebLlmMessage[] = [];
  for (const [i, m] of messages.entries()) {
    const role: WebLlmMessage['role'] = m.role === 'tool' || (m.role === 'system' && i > 0) ? 'user' : m.role;
    const content = m.role === 'tool' ? `Observation: ${m.content}` : m.content;
    const prev = out[out.length - 1];
    if (prev && prev.role === role && role !== 'system') prev.content += `\n\n${content}`;
    else out.push({ role, content });
  }
  return out;
}

export async function createWebLlmModel(options: WebLlmOptions): Promise<ChatModel> {
  const { model } = options;
  let engine: WebLlmEngine;
  try {
    engine = await (options.loadEngine ?? loadWithWebLlm)(
      model,
      (p) => options.onProgress?.(p),
      options.contextWindowSize ?? DEFAULT_CONTEXT_WINDOW,
    );
  } catch (e) {
    throw webLlmError(e, model);
  }
  // One engine generates one reply at a time; a second call waits rather than corrupting the first.
  let queue: Promise<void> = Promise.resolve();

  async function* generate(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const signal = request.signal;
    if (signal?.aborted) throw abortedError();
    const onAbort = () => void Promise.resolve(engine.interruptGenerate()).catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const stream = await engine.chat.completions.create({
        messages: toWebLlmMessages(request.messages),
        stream: true,
        stream_options: { include_usage: true },
        ...(request.stop?.length ? { stop: request.stop } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
      });
      const turn = new OpenAiTurn();
      for await (const chunk of stream) {
        if (signal?.aborted) break;
        for (const d of turn.apply(chunk)) if (d.type === 'text') yield d;
      }
      if (signal?.aborted) throw abortedError();
      const r = turn.result();
      const usage = r.usage ?? (await estimateUsage(request.messages, undefined, r.text, []));
      yield { type: 'usage', usage };
      yield {
        type: 'finish',
        response: {
          text: r.text,
          toolCalls: [],
          usage,
          finishReason: r.finishReason === 'tool_calls' ? 'stop' : r.finishReason,
        },
      };
    } catch (e) {
      if (signal?.aborted) throw abortedError(e);
      throw webLlmError(e, model);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    provider: 'webllm',
    model,
    supportsTools: false,
    async *stream(request) {
      const previous = queue;
      let release = () => {};
      queue = new Promise<void>((resolve) => (release = resolve));
      try {
        await previous;
        yield* generate(request);
      } finally {
        release();
      }
    },
  };
}
