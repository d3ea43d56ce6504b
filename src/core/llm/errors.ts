// Turns HTTP failures and fetch rejections from any provider into LlmError with a message a
// person can act on. Keys never appear here: 401/403 bodies are not echoed (OpenAI's own 401 body
// quotes part of the key); after a request that carried a key, a server's words are quoted only
// when `safeToShow` finds no key in them, in any disguise (core/security/key-echo.ts, decision
// 070), else a fixed sentence stands in; a keyless server's text goes through `redactSecrets`
// (core/security/redact.ts, the one routine page and CLI share).

import { safeToShow } from '../security/key-echo';
import { redactSecrets, secretsOf } from '../security/redact';
import { LlmError } from './types';

export { redactSecrets };

export interface LlmErrorContext {
  /** Shown to people: "OpenAI", "Ollama", "Anthropic", "OpenAI-compatible server" … */
  provider: string;
  baseUrl?: string;
  model?: string;
  /** Value of the Retry-After header, when there was one. */
  retryAfter?: string | null;
  /** Exact strings to cut out of anything we show (the API key). */
  secrets?: string[];
  now?: number;
}

// Retry-After per error, kept beside the error rather than on LlmError so the port's shape stays.
const retryAfterByError = new WeakMap<LlmError, number>();

/** Milliseconds the server asked us to wait before retrying, if it said. */
export function retryAfterMs(error: LlmError): number | undefined {
  return retryAfterByError.get(error);
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Origin + path only: a URL typed by a person could carry credentials or a ?key=… query. */
export function displayUrl(baseUrl: string | undefined): string {
  if (!baseUrl) return '';
  try {
    const u = new URL(baseUrl);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
  } catch {
    return baseUrl.replace(/[?#].*$/, '');
  }
}

export function isOllamaUrl(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  try {
    return new URL(baseUrl).port === '11434';
  } catch {
    return baseUrl.includes(':11434');
  }
}

function isLmStudioUrl(baseUrl: string | undefined): boolean {
  return !!baseUrl && /:1234(\/|$)/.test(baseUrl);
}

/** The human part of an error body: OpenAI/Anthropic `{error:{message}}`, Ollama `{error:"…"}`, or the text. */
export function serverMessage(bodyText: string): string {
  let text = bodyText.trim();
  try {
    const json = JSON.parse(text) as unknown;
    const found = findMessage(json);
    if (found) text = found;
  } catch {
    // not JSON: an HTML error page or plain text; keep it, shortened below
  }
  text = tidy(text);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Tags dropped, white space collapsed. */
const tidy = (text: string) =>
  text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** After a keyed request a server's message longer than this is not quoted at all. */
const KEYED_MESSAGE_MAX = 200;

/** Said in place of a keyed server's words that could not be shown. */
export const WITHHELD = "The server's own message is not shown: it could repeat the API key.";

type QuoteContext = Pick<LlmErrorContext, 'secrets' | 'model'>;

/** The request carried a key (one long enough to be a secret: `ollama` or `x` is none). */
const keyed = (ctx: QuoteContext) => secretsOf(ctx.secrets ?? []).length > 0;
/** The model's name is the person's own choice: it is no token to hide. */
const safe = (text: string, ctx: QuoteContext) => safeToShow(text, ctx.secrets ?? [], ctx.model ? [ctx.model] : []);

/**
 * What may be quoted of a server's reply to this request: all of it (redacted) from a server that
 * got no key; from one that did, only the message of a JSON error body, and only when it is short
 * and `safeToShow` passes it — else null (say `WITHHELD`).
 */
export function quotableServerText(bodyText: string, ctx: QuoteContext): string | null {
  if (!keyed(ctx)) return redactSecrets(serverMessage(bodyText), ctx.secrets);
  if (!bodyText.trim()) return '';
  let found: string | undefined;
  try {
    found = findMessage(JSON.parse(bodyText) as unknown, false);
  } catch {
    return null; // plain text or an HTML page: nothing known to be the server's own sentence
  }
  const text = found === undefined ? '' : tidy(found);
  if (!text || text.length > KEYED_MESSAGE_MAX) return null;
  return safe(text, ctx) ? text : null;
}

/** Server text quoted inside one of our own messages: redacted, or `WITHHELD` after a keyed request. */
export function shownServerText(text: string, ctx: QuoteContext): string {
  if (!keyed(ctx)) return redactSecrets(text, ctx.secrets);
  return safe(text, ctx) ? text : `(${WITHHELD})`;
}

function findMessage(json: unknown, bare = true): string | undefined {
  if (!json || typeof json !== 'object') return bare && typeof json === 'string' ? json : undefined;
  const o = json as Record<string, unknown>;
  if (typeof o.error === 'string') return o.error;
  if (o.error && typeof o.error === 'object') {
    const e = o.error as Record<string, unknown>;
    if (typeof e.message === 'string') return e.message;
  }
  if (typeof o.message === 'string') return o.message;
  if (typeof o.detail === 'string') return o.detail;
  return undefined;
}

// OpenAI `context_length_exceeded` / "maximum context length", Anthropic "prompt is too long",
// llama.cpp "exceeds the available context size", Ollama/vLLM "context length" wordings.
const CONTEXT_RE =
  /context_length_exceeded|maximum context length|context length|context size|context window|prompt is too long|prompt too long|too many tokens|input is too long/i;

export function isContextLengthText(text: string): boolean {
  return CONTEXT_RE.test(text);
}

const MODEL_MISSING_RE =
  /model[^.]*\b(not found|does not exist|not exist|is not a valid model|no such model|unknown model)|model_not_found|not a valid model|try pulling it/i;

export function llmErrorFromResponse(status: number, bodyText: string, ctx: LlmErrorContext): LlmError {
  const who = ctx.provider;
  const where = displayUrl(ctx.baseUrl);
  const model = ctx.model ? `"${ctx.model}"` : 'the model';
  const quotable = quotableServerText(bodyText, ctx);
  const saidPart = quotable === null ? ` ${WITHHELD}` : quotable ? ` The server said: ${quotable}` : '';
  // Only to choose the error's code: a model-missing wording, never shown unless quotable.
  const said = serverMessage(bodyText);

  if (status === 401 || status === 403) {
    return new LlmError(
      'llm_auth',
      `The API key was refused by ${who} (HTTP ${status}). Check the key in Settings` +
        (status === 403 ? ' and that it has access to this model.' : '.'),
      { status },
    );
  }
  if (isContextLengthText(bodyText)) {
    return new LlmError(
      'llm_context_length',
      `The conversation is too long for ${model} (${who}'s context limit). Start a new question or choose a model with a larger context.${saidPart}`,
      { status },
    );
  }
  if (status === 404 || (status < 500 && status !== 429 && MODEL_MISSING_RE.test(said))) {
    const hint = isOllamaUrl(ctx.baseUrl)
      ? ` Run "ollama pull ${ctx.model ?? '<model>'}" or pick a model "ollama list" shows.`
      : ' Check the model name, and that the base URL is right (OpenAI-compatible servers usually end in /v1).';
    return new LlmError(
      'llm_model_not_found',
      `${who} says model ${model} was not found at ${where}.${hint}${saidPart}`,
      { status },
    );
  }
  if (status === 429) {
    const wait = parseRetryAfter(ctx.retryAfter, ctx.now);
    const err = new LlmError(
      'llm_rate_limit',
      `${who} is limiting requests (HTTP 429)` +
        (wait !== undefined ? `; it asked to wait ${Math.ceil(wait / 1000)} s.` : '.') +
        ` Wait a moment and try again, or check your plan's quota.${saidPart}`,
      { status, retryable: true },
    );
    if (wait !== undefined) retryAfterByError.set(err, wait);
    return err;
  }
  if (status >= 500) {
    const err = new LlmError(
      'llm_server',
      `${who} had a server error (HTTP ${status}). Try again in a moment.${saidPart}`,
      {
        status,
        retryable: true,
      },
    );
    const wait = parseRetryAfter(ctx.retryAfter, ctx.now);
    if (wait !== undefined) retryAfterByError.set(err, wait);
    return err;
  }
  return new LlmError('llm_bad_response', `${who} refused the request (HTTP ${status}).${saidPart}`, { status });
}

function isAbort(e: unknown): boolean {
  return (
    !!e &&
    typeof e === 'object' &&
    'name' in e &&
    ((e as { name: unknown }).name === 'AbortError' || (e as { name: unknown }).name === 'TimeoutError')
  );
}

export function abortedError(cause?: unknown): LlmError {
  return new LlmError('llm_aborted', 'The model call was stopped.', { cause });
}

/** fetch rejected: aborted, or never reached the server (down, wrong URL, CORS — the browser cannot tell us which). */
export function llmErrorFromFetchFailure(e: unknown, ctx: Pick<LlmErrorContext, 'provider' | 'baseUrl'>): LlmError {
  if (e instanceof LlmError) return e;
  if (isAbort(e)) return abortedError(e);
  const where = displayUrl(ctx.baseUrl);
  let hint =
    ' Check that the server is running and the URL is right. In a browser this also happens when the server does not allow calls from this page (CORS).';
  if (isOllamaUrl(ctx.baseUrl)) {
    hint +=
      ' For Ollama, start it with OLLAMA_ORIGINS set to this page\'s origin (or "*"), e.g. OLLAMA_ORIGINS="*" ollama serve.';
  } else if (isLmStudioUrl(ctx.baseUrl)) {
    hint += ' For LM Studio, turn on "Enable CORS" in its server settings.';
  }
  return new LlmError('llm_network', `Could not reach ${ctx.provider} at ${where}.${hint}`, { cause: e });
}

/**
 * A request that carries a key follows no redirect (`redirect: 'manual'`): a fetch would send the
 * key's header on to wherever the server points (Node's fetch drops only `Authorization` across
 * origins, not Anthropic's `x-api-key`). Such an answer becomes this error (issue 28).
 */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

export function redirectRefused(ctx: Pick<LlmErrorContext, 'provider' | 'baseUrl'>): LlmError {
  return new LlmError(
    'llm_network',
    `${ctx.provider} at ${displayUrl(ctx.baseUrl)} answered with a redirect; the key is not sent on to another address. Set the base URL to the server's own address.`,
  );
}
