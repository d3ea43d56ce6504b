// The language-model port the agent talks to. Every provider (OpenAI-compatible, Anthropic,
// WebLLM, the scripted model) implements ChatModel over an injected fetch; core never reaches
// for the network itself.

/** A tool the model may call natively: name, description, JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  /** Provider's id for the call (tool results must echo it); generated when the provider gives none. */
  id: string;
  name: string;
  /** Raw argument text as the model wrote it: parsed (and possibly refused) by the agent, never eval'd. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface Usage {
  /** Every input token of the request, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens the provider served from its prompt cache, when it says so. */
  cachedInputTokens?: number;
  /** True when the provider did not report usage and the numbers were estimated with a tokenizer. */
  estimated: boolean;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Native tool calling when given (and the provider supports it). */
  tools?: ToolSpec[];
  /** Text protocol: stop before the model writes an observation itself. */
  stop?: string[];
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** Streamed pieces of one assistant turn. */
export type ChatDelta =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; index: number; id?: string; name?: string; argumentsDelta?: string };

/**
 * What a model stream yields: deltas while the turn is written, its usage once known, and last
 * exactly one `finish` carrying the whole turn (text, merged tool calls, usage, finish reason).
 */
export type ChatStreamPart = ChatDelta | { type: 'usage'; usage: Usage } | { type: 'finish'; response: ChatResponse };

export interface ChatResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage | null;
  finishReason: 'stop' | 'tool_calls' | 'length' | 'other';
}

export interface ChatModel {
  readonly provider: string;
  readonly model: string;
  readonly supportsTools: boolean;
  /**
   * One assistant turn as typed parts (see ChatStreamPart). Iterating throws LlmError on failure;
   * `request.signal` aborts it, and leaving the loop early cancels the request.
   */
  stream(request: ChatRequest): AsyncIterable<ChatStreamPart>;
}

/**
 * `model` with its stream replaced (a gate, a budget, a limit in front of it): what the model is
 * — provider, name, tool support — stays as it is.
 */
export function withStream(model: ChatModel, stream: ChatModel['stream']): ChatModel {
  return { provider: model.provider, model: model.model, supportsTools: model.supportsTools, stream };
}

export type LlmErrorCode =
  | 'llm_auth'
  | 'llm_model_not_found'
  | 'llm_rate_limit'
  | 'llm_server'
  | 'llm_network'
  /** The server stopped sending (no reply begun, or a pause) past the wait limit (stream-guard.ts). */
  | 'llm_timeout'
  | 'llm_aborted'
  | 'llm_context_length'
  | 'llm_bad_response';

/** A failed model call, with a code the page and CLI show the same way and a readable message. */
export class LlmError extends Error {
  readonly code: LlmErrorCode;
  readonly status?: number;
  readonly retryable: boolean;

  constructor(
    code: LlmErrorCode,
    message: string,
    options: { status?: number; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'LlmError';
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }
}
