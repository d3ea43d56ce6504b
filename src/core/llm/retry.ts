// Retries for model calls: only errors marked retryable (429, 5xx) are tried again, with
// exponential backoff + jitter, or exactly the wait the server asked for in Retry-After.
// Retries happen only before any delta reached the caller, so a turn is never streamed twice.

import { abortedError, retryAfterMs } from './errors';
import { LlmError } from './types';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  maxRetries: number;
  baseMs: number;
  /** Longest backoff we pick ourselves. */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error goes to the person instead. */
  maxRetryAfterMs?: number;
  signal?: AbortSignal;
  sleep?: Sleep;
  random?: () => number;
  onRetry?: (info: { attempt: number; delayMs: number; error: LlmError }) => void;
}

/** setTimeout that rejects with llm_aborted as soon as the signal fires. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export function backoffDelay(attempt: number, opts: Pick<RetryOptions, 'baseMs' | 'maxDelayMs' | 'random'>): number {
  const ceiling = Math.min(opts.maxDelayMs ?? 20_000, opts.baseMs * 2 ** attempt);
  // "Equal jitter": at least half the step, so retries spread out but never hammer at once.
  return Math.round(ceiling / 2 + (ceiling / 2) * (opts.random ?? Math.random)());
}

export async function withRetry<T>(run: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const sleep = opts.sleep ?? abortableSleep;
  for (let attempt = 0; ; attempt++) {
    if (opts.signal?.aborted) throw abortedError();
    try {
      return await run(attempt);
    } catch (e) {
      if (!(e instanceof LlmError) || !e.retryable || attempt >= opts.maxRetries) throw e;
      const asked = retryAfterMs(e);
      if (asked !== undefined && asked > (opts.maxRetryAfterMs ?? 60_000)) throw e;
      const delayMs = asked ?? backoffDelay(attempt, opts);
      opts.onRetry?.({ attempt: attempt + 1, delayMs, error: e });
      await sleep(delayMs, opts.signal);
      if (opts.signal?.aborted) throw abortedError();
    }
  }
}
