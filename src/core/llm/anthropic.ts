// Anthropic Messages API over fetch, streaming, with native tool use. The browser may call it
// directly only with `anthropic-dangerous-direct-browser-access`; the key is the user's own,
// held in their page, which is the case that header exists for.

import { jsonNesting, MAX_ARGUMENT_NESTING } from '../format/bounded-json';
import { assertDisclosed } from '../privacy/disclose';
import {
  abortedError,
  isRedirect,
  llmErrorFromFetchFailure,
  llmErrorFromResponse,
  redirectRefused,
  shownServerText,
} from './errors';
import { generatedCallId, mapFinishReason } from './openai-stream';
import { withRetry, type Sleep } from './retry';
import { sseEvents } from './sse';
import {
  LlmError,
  type ChatStreamPart,
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  type ToolCall,
  type Usage,
} from './types';
import { estimateUsage } from './usage';
import { capReply } from './reply-cap';
import { DEFAULT_STREAM_LIMITS, guardFetch, type StreamLimits } from './stream-guard';

export interface AnthropicOptions {
  apiKey: string;
  model: string;
  fetch: typeof fetch;
  baseUrl?: string;
  maxRetries?: number;
  retryBaseMs?: number;
  sleep?: Sleep;
  /** Anthropic requires max_tokens on every request; used when the request gives none. */
  defaultMaxTokens?: number;
  /** How long a reply may take to begin, and pause (stream-guard.ts); default DEFAULT_STREAM_LIMITS. */
  limits?: StreamLimits;
}

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string };

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

function toolInput(args: string): unknown {
  // The API wants an object; a call the agent refused as bad JSON (or nested too deep to send:
  // the request body's JSON.stringify would overflow the stack) is still echoed, wrapped.
  if (jsonNesting(args, MAX_ARGUMENT_NESTING) > MAX_ARGUMENT_NESTING) return { raw: args };
  try {
    const v = JSON.parse(args) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    // fall through
  }
  return { raw: args };
}

/** System text goes apart; tool results become user turns; consecutive same-role turns merge (the API wants alternation). */
export function toAnthropicMessages(messages: readonly ChatMessage[]): {
  system: string;
  messages: AnthropicMessage[];
} {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') push('user', m.content ? [{ type: 'text', text: m.content }] : []);
    else if (m.role === 'tool') push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }]);
    else {
      const blocks: Block[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls ?? [])
        blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.arguments) });
      push('assistant', blocks);
    }
  }
  // Text blocks after tool results in one user turn: the API wants tool results first.
  for (const m of out)
    if (m.role === 'user')
      m.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  return { system: system.join('\n\n'), messages: out };
}

// input_tokens counts only what was neither read from nor written to the prompt cache.
interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

interface StreamEvent {
  type: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type: string; text?: string; id?: string; name?: string; input?: unknown };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

const ERROR_STATUS: Record<string, number> = {
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_error: 429,
  overloaded_error: 529,
  api_error: 500,
  invalid_request_error: 400,
};

export function createAnthropicModel(options: AnthropicOptions): ChatModel {
  const baseUrl = (options.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '');
  const ctx = { provider: 'Anthropic', baseUrl, model: options.model, secrets: [options.apiKey] };
  const guardedFetch = guardFetch(options.fetch, options.limits ?? DEFAULT_STREAM_LIMITS, 'Anthropic');

  async function post(request: ChatRequest): Promise<Response> {
    const { system, messages } = toAnthropicMessages(request.messages);
    const body: Record<string, unknown> = {
      model: options.model,
      messages,
      max_tokens: request.maxTokens ?? options.defaultMaxTokens ?? 4096,
      stream: true,
    };
    // Prompt caching: the system prompt and the tools are the same on every turn of a run, so they
    // are marked as a cache breakpoint (the last tool closes the tools block); later turns read
    // them from Anthropic's cache instead of paying for them again.
    const cache = { type: 'ephemeral' };
    if (system) body.system = [{ type: 'text', text: system, cache_control: cache }];
    if (request.tools?.length)
      body.tools = request.tools.map((t, i, all) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters,
        ...(i === all.length - 1 ? { cache_control: cache } : {}),
      }));
    if (request.stop?.length) body.stop_sequences = request.stop;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    const payload = JSON.stringify(body);
    assertDisclosed(payload);
    let response: Response;
    try {
      response = await guardedFetch(`${baseUrl}/v1/messages`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'x-api-key': options.apiKey,
          'anthropic-version': '2023-06-01',
          'anthropic-dangerous-direct-browser-access': 'true',
        },
        body: payload,
        signal: request.signal,
        redirect: 'manual',
      });
    } catch (e) {
      throw llmErrorFromFetchFailure(e, ctx);
    }
    if (isRedirect(response)) throw redirectRefused(ctx);
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    throw llmErrorFromResponse(response.status, text, { ...ctx, retryAfter: response.headers.get('retry-after') });
  }

  async function* stream(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    let text = '';
    const calls: { id: string; name: string; arguments: string }[] = [];
    // Anthropic indexes all content blocks; callers index tool calls only.
    const toolIndexByBlock = new Map<number, number>();
    let stopReason: string | null = null;
    let inputTokens: number | undefined;
    let outputTokens: number | undefined;
    let cacheRead = 0;
    let cacheWrite = 0;
    const readUsage = (u: AnthropicUsage | undefined) => {
      if (u?.input_tokens !== undefined) inputTokens = u.input_tokens;
      if (u?.output_tokens !== undefined) outputTokens = u.output_tokens;
      if (u?.cache_read_input_tokens !== undefined) cacheRead = u.cache_read_input_tokens;
      if (u?.cache_creation_input_tokens !== undefined) cacheWrite = u.cache_creation_input_tokens;
    };

    const handle = (ev: StreamEvent): ChatStreamPart[] => {
      switch (ev.type) {
        case 'message_start':
          readUsage(ev.message?.usage);
          break;
        case 'content_block_start': {
          const block = ev.content_block;
          if (block?.type === 'text' && block.text) {
            text += block.text;
            return [{ type: 'text', text: block.text }];
          } else if (block?.type === 'tool_use') {
            const index = calls.length;
            toolIndexByBlock.set(ev.index ?? -1, index);
            const call = { id: block.id ?? generatedCallId(), name: block.name ?? '', arguments: '' };
            calls.push(call);
            return [{ type: 'tool_call', index, id: call.id, name: call.name }];
          }
          break;
        }
        case 'content_block_delta': {
          if (ev.delta?.type === 'text_delta' && ev.delta.text) {
            text += ev.delta.text;
            return [{ type: 'text', text: ev.delta.text }];
          } else if (ev.delta?.type === 'input_json_delta' && ev.delta.partial_json) {
            const index = toolIndexByBlock.get(ev.index ?? -1);
            if (index === undefined) break;
            calls[index].arguments += ev.delta.partial_json;
            return [{ type: 'tool_call', index, argumentsDelta: ev.delta.partial_json }];
          }
          break;
        }
        case 'message_delta':
          if (ev.delta?.stop_reason) stopReason = ev.delta.stop_reason;
          readUsage(ev.usage);
          break;
        case 'error': {
          const status = ERROR_STATUS[ev.error?.type ?? ''] ?? 500;
          const err = llmErrorFromResponse(status, JSON.stringify(ev), ctx);
          // Part of the turn is already out: no retry here, the agent decides.
          throw new LlmError(err.code, err.message, { status: err.status, retryable: false });
        }
        default:
          break; // ping, content_block_stop, message_stop
      }
      return [];
    };

    try {
      const response = await withRetry(() => post(request), {
        maxRetries: options.maxRetries ?? 2,
        baseMs: options.retryBaseMs ?? 500,
        sleep: options.sleep,
        signal: request.signal,
      });
      for await (const event of sseEvents(response, request.signal)) {
        let ev: StreamEvent;
        try {
          ev = JSON.parse(event.data) as StreamEvent;
        } catch {
          throw new LlmError(
            'llm_bad_response',
            `Anthropic sent an event that is not JSON: ${shownServerText(event.data.slice(0, 120), ctx)}`,
          );
        }
        yield* handle(ev);
        if (ev.type === 'message_stop') break;
      }
      if (request.signal?.aborted) throw abortedError();
    } catch (e) {
      if (e instanceof LlmError) throw e;
      if (e && typeof e === 'object' && (e as { name?: unknown }).name === 'AbortError') throw abortedError(e);
      throw new LlmError('llm_network', 'The connection to Anthropic broke while the reply was streaming.', {
        cause: e,
      });
    }

    const toolCalls: ToolCall[] = calls.map((c) => ({ ...c, arguments: c.arguments || '{}' }));
    const usage: Usage =
      inputTokens !== undefined
        ? {
            inputTokens: inputTokens + cacheRead + cacheWrite,
            outputTokens: outputTokens ?? 0,
            ...(cacheRead || cacheWrite ? { cachedInputTokens: cacheRead } : {}),
            estimated: false,
          }
        : await estimateUsage(request.messages, request.tools, text, toolCalls);
    yield { type: 'usage', usage };
    yield { type: 'finish', response: { text, toolCalls, usage, finishReason: mapFinishReason(stopReason) } };
  }

  return {
    provider: 'anthropic',
    model: options.model,
    supportsTools: true,
    stream: (request) => capReply(stream(request)),
  };
}
