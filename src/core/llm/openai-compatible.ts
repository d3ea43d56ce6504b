// One client for every server that speaks OpenAI Chat Completions: OpenAI, Ollama (/v1),
// LM Studio, vLLM, llama.cpp server, OpenRouter, any custom base URL. Streams by default and
// copes with servers that ignore `stream` (plain JSON back) or refuse `stream_options`.

import { assertDisclosed } from '../privacy/disclose';
import {
  abortedError,
  displayUrl,
  isOllamaUrl,
  isRedirect,
  llmErrorFromFetchFailure,
  llmErrorFromResponse,
  redirectRefused,
  shownServerText,
  serverMessage,
} from './errors';
import { OpenAiTurn, type CompletionJson } from './openai-stream';
import { withRetry, type Sleep } from './retry';
import { sseEvents } from './sse';
import {
  LlmError,
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  type ChatStreamPart,
  type ToolSpec,
} from './types';
import { estimateUsage } from './usage';
import { capReply } from './reply-cap';
import { DEFAULT_STREAM_LIMITS, guardFetch, type StreamLimits } from './stream-guard';

export interface OpenAiCompatibleOptions {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 — `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  fetch: typeof fetch;
  /** Extra headers (OpenRouter's HTTP-Referer / X-Title, a proxy's own auth …). */
  headers?: Record<string, string>;
  maxRetries?: number;
  retryBaseMs?: number;
  sleep?: Sleep;
  /** Name shown in messages; guessed from the URL when absent. */
  label?: string;
  /** Native tool calling; some local models have none, then the agent uses its text protocol. */
  supportsTools?: boolean;
  /** How long a reply may take to begin, and pause (stream-guard.ts); default DEFAULT_STREAM_LIMITS. */
  limits?: StreamLimits;
}

export function guessLabel(baseUrl: string): string {
  if (isOllamaUrl(baseUrl)) return 'Ollama';
  if (/:1234(\/|$)/.test(baseUrl)) return 'LM Studio';
  if (/api\.openai\.com/.test(baseUrl)) return 'OpenAI';
  if (/openrouter\.ai/.test(baseUrl)) return 'OpenRouter';
  return `the model server at ${displayUrl(baseUrl)}`;
}

export function toOpenAiMessages(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  return messages.map((m) => {
    switch (m.role) {
      case 'assistant':
        if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          // OpenAI wants null, not "", beside tool calls; every server we target accepts null.
          content: m.content === '' ? null : m.content,
          tool_calls: m.toolCalls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          })),
        };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      default:
        return { role: m.role, content: m.content };
    }
  });
}

function toOpenAiTools(tools: readonly ToolSpec[]) {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

export function createOpenAiCompatibleModel(options: OpenAiCompatibleOptions): ChatModel {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const label = options.label ?? guessLabel(baseUrl);
  const ctx = { provider: label, baseUrl, model: options.model, secrets: options.apiKey ? [options.apiKey] : [] };
  const guardedFetch = guardFetch(options.fetch, options.limits ?? DEFAULT_STREAM_LIMITS, label);
  // Learned once per model: this server refuses stream_options, so stop sending it.
  let sendStreamOptions = true;

  function body(request: ChatRequest): Record<string, unknown> {
    const b: Record<string, unknown> = {
      model: options.model,
      messages: toOpenAiMessages(request.messages),
      stream: true,
    };
    if (sendStreamOptions) b.stream_options = { include_usage: true };
    if (request.tools?.length) b.tools = toOpenAiTools(request.tools);
    // OpenAI refuses more than four stop sequences; the agent's protocol needs only one or two.
    if (request.stop?.length) b.stop = request.stop.slice(0, 4);
    if (request.temperature !== undefined) b.temperature = request.temperature;
    if (request.maxTokens !== undefined) b.max_tokens = request.maxTokens;
    return b;
  }

  async function post(request: ChatRequest): Promise<Response> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'text/event-stream, application/json',
      ...options.headers,
    };
    if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
    const payload = JSON.stringify(body(request));
    assertDisclosed(payload);
    for (let tries = 0; ; tries++) {
      let response: Response;
      try {
        response = await guardedFetch(`${baseUrl}/chat/completions`, {
          method: 'POST',
          headers,
          body: tries === 0 ? payload : JSON.stringify(body(request)),
          signal: request.signal,
          // With a key, no redirect is followed (errors.ts isRedirect).
          ...(options.apiKey ? { redirect: 'manual' as const } : {}),
        });
      } catch (e) {
        throw llmErrorFromFetchFailure(e, ctx);
      }
      if (options.apiKey && isRedirect(response)) throw redirectRefused(ctx);
      if (response.ok) return response;
      const text = await response.text().catch(() => '');
      if (response.status === 400 && sendStreamOptions && tries === 0 && /stream_options/i.test(text)) {
        sendStreamOptions = false;
        continue;
      }
      throw llmErrorFromResponse(response.status, text, { ...ctx, retryAfter: response.headers.get('retry-after') });
    }
  }

  async function* stream(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const turn = new OpenAiTurn();
    const parts = (chunk: CompletionJson): ChatStreamPart[] => {
      if (chunk.error) throw streamError(chunk.error);
      return turn.apply(chunk);
    };
    try {
      const response = await withRetry(() => post(request), {
        maxRetries: options.maxRetries ?? 2,
        baseMs: options.retryBaseMs ?? 500,
        sleep: options.sleep,
        signal: request.signal,
      });
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('application/json')) {
        // The server ignored `stream: true` and answered in one piece.
        yield* parts(parseJson(await response.text()));
      } else {
        for await (const event of sseEvents(response, request.signal)) {
          if (event.data.trim() === '[DONE]') break;
          yield* parts(parseJson(event.data));
        }
      }
      if (request.signal?.aborted) throw abortedError();
    } catch (e) {
      throw toLlmError(e);
    }
    const result = turn.result();
    if (!result.usage)
      result.usage = await estimateUsage(request.messages, request.tools, result.text, result.toolCalls);
    yield { type: 'usage', usage: result.usage };
    yield { type: 'finish', response: result };
  }

  function parseJson(text: string): CompletionJson {
    try {
      return JSON.parse(text) as CompletionJson;
    } catch {
      throw new LlmError(
        'llm_bad_response',
        `${label} sent a reply that is not JSON: ${shownServerText(text.slice(0, 120), ctx)}`,
      );
    }
  }

  // Some servers report failures inside the stream (`data: {"error": …}`) after a 200.
  function streamError(error: unknown): LlmError {
    const status =
      typeof error === 'object' && error && typeof (error as { code?: unknown }).code === 'number'
        ? (error as { code: number }).code
        : 500;
    const err = llmErrorFromResponse(status, JSON.stringify({ error }), ctx);
    // Half a turn has already been streamed: retrying here would show it twice.
    return new LlmError(err.code, err.message, { status: err.status, retryable: false });
  }

  function toLlmError(e: unknown): LlmError {
    if (e instanceof LlmError) return e;
    if (isAbortError(e)) return abortedError(e);
    const message = e instanceof Error ? e.message : String(e);
    return new LlmError(
      'llm_network',
      `The connection to ${label} broke while the reply was streaming: ${shownServerText(serverMessage(message), ctx)}`,
      {
        cause: e,
      },
    );
  }

  return {
    provider: 'openai-compatible',
    model: options.model,
    supportsTools: options.supportsTools ?? true,
    stream: (request) => capReply(stream(request)),
  };
}

function isAbortError(e: unknown): boolean {
  return !!e && typeof e === 'object' && (e as { name?: unknown }).name === 'AbortError';
}
