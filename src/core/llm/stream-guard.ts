// A model server that stops sending must not hold a run for ever (decision 068): a request waits
// at most `firstByteMs` for its reply to begin (for the response headers, then again for the
// first bytes of the body) and at most `idleMs` between two pieces once it has begun. Past either,
// the fetch and its body are aborted and the request fails with `llm_timeout`, in words that name
// the limit and how to raise it. Both HTTP clients fetch through `guardFetch`. A reply that keeps
// sending without end passes these limits: the reply cap (reply-cap.ts) and the answer budget
// (agent/answer-budget.ts) stop that one.

import { LlmError } from './types';

export interface StreamLimits {
  /** Longest wait for a reply to begin: for the response headers, then for the first bytes of its body. */
  firstByteMs: number;
  /** Longest pause between two pieces of a reply once it has begun. */
  idleMs: number;
  /** How the person raises the limit, the end of the error ("raise it with --model-timeout <s>"). */
  raiseHint?: string;
}

/**
 * Generous on purpose (decision 068): a local model on a CPU reads a long prompt for a minute or
 * two before its first token, and a reasoning model may think in silence; Node's own fetch gives
 * up on silent headers or body after 300 s with a less readable error, so the limit stays below.
 */
export const DEFAULT_MODEL_WAIT_MS = 180_000;

export const DEFAULT_STREAM_LIMITS: StreamLimits = streamLimits(DEFAULT_MODEL_WAIT_MS);

/** One wait limit for the start of a reply and for its pauses. */
export function streamLimits(waitMs: number, raiseHint?: string): StreamLimits {
  return { firstByteMs: waitMs, idleMs: waitMs, ...(raiseHint ? { raiseHint } : {}) };
}

/** "180 s", "0.05 s", "15 min": a limit as people read it. */
export function limitText(ms: number): string {
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms) / 1000} s`;
}

type Phase = 'headers' | 'body' | 'pause';

function stalled(provider: string, phase: Phase, ms: number, raiseHint: string | undefined): LlmError {
  const t = limitText(ms);
  const what =
    phase === 'headers'
      ? `${provider} sent no answer within ${t}`
      : phase === 'body'
        ? `${provider} answered but sent nothing of its reply within ${t}`
        : `${provider} stopped sending in the middle of its reply: nothing came for ${t}`;
  const hint = raiseHint ?? 'raise the model wait limit (--model-timeout in the CLI, Settings on the page)';
  // "the model server at …" opens the sentence.
  const sentence = what.charAt(0).toUpperCase() + what.slice(1);
  return new LlmError(
    'llm_timeout',
    `${sentence} (the model wait limit), so the request was stopped. If the model is just slow, ${hint}.`,
  );
}

/** `work`, or the error `expire` makes once `ms` pass first. */
function within<T>(work: Promise<T>, ms: number, expire: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(expire()), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * `fetch` with the wait limits: the request is aborted through its own signal (the caller's still
 * aborts it), and the body is read through a stream that times each wait for bytes. A wait is
 * timed only while someone reads (`highWaterMark: 0`): a slow reader is no slow server.
 */
export function guardFetch(fetch: typeof globalThis.fetch, limits: StreamLimits, provider: string): typeof fetch {
  return async (input, init) => {
    const controller = new AbortController();
    const outer = init?.signal;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const release = () => outer?.removeEventListener('abort', forward);
    // The limit's error settles the wait at once; the fetch's own rejection on abort comes later, unheard.
    const expire = (phase: Phase, ms: number) => {
      const error = stalled(provider, phase, ms, limits.raiseHint);
      controller.abort(error);
      return error;
    };

    let response: Response;
    try {
      response = await within(fetch(input, { ...init, signal: controller.signal }), limits.firstByteMs, () =>
        expire('headers', limits.firstByteMs),
      );
    } catch (e) {
      release();
      throw e;
    }
    // No body to wait for, or a status a Response cannot be made with (an opaque redirect's 0).
    if (!response.body || response.status < 200 || response.status > 599) {
      release();
      return response;
    }
    const reader = response.body.getReader();
    let begun = false;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(stream) {
          const [phase, ms]: [Phase, number] = begun ? ['pause', limits.idleMs] : ['body', limits.firstByteMs];
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await within(reader.read(), ms, () => {
              const error = expire(phase, ms);
              reader.cancel(error).catch(() => {});
              return error;
            });
          } catch (e) {
            release();
            throw e;
          }
          if (cancelled) return;
          if (chunk.done) {
            release();
            stream.close();
            return;
          }
          begun = true;
          stream.enqueue(chunk.value);
        },
        cancel(reason) {
          cancelled = true;
          release();
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
