// Many questions share one model account: a 429 for one is a 429 for all. The gate holds every
// request of the run while the provider asked to wait (Retry-After) or, without one, for a
// growing pause; the refused request is then sent again. Providers already retry a couple of
// times on their own (llm/retry.ts); this is the run-wide layer above them.

import { retryAfterMs } from '../llm/errors';
import { abortableSleep, backoffDelay } from '../llm/retry';
import { LlmError, withStream, type ChatModel, type ChatRequest, type ChatStreamPart } from '../llm/types';

export interface RateGateOptions {
  /** Pauses for one request before its 429 is given up (then the question fails, for --retry-failed). */
  maxWaits?: number;
  baseMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told of each pause (the CLI prints it). */
  onPause?: (ms: number, reason: string) => void;
}

export class RateGate {
  private until = 0;
  /** Pauses so far, for the report. */
  pauses = 0;

  constructor(private readonly options: RateGateOptions = {}) {}

  private get now() {
    return (this.options.now ?? Date.now)();
  }

  async wait(signal?: AbortSignal): Promise<void> {
    const sleep = this.options.sleep ?? abortableSleep;
    while (this.until > this.now) await sleep(this.until - this.now, signal);
  }

  pause(ms: number, reason: string): void {
    this.pauses++;
    this.until = Math.max(this.until, this.now + ms);
    this.options.onPause?.(ms, reason);
  }

  /** The model with every request passing the gate, and 429s closing it. */
  wrap(model: ChatModel): ChatModel {
    return withStream(model, (request) => this.gated(model, request));
  }

  /** A 429 comes before any part of the reply: only then is the request sent again. */
  private async *gated(model: ChatModel, request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const maxWaits = this.options.maxWaits ?? 6;
    const baseMs = this.options.baseMs ?? 2_000;
    for (let attempt = 0; ; attempt++) {
      await this.wait(request.signal);
      let started = false;
      try {
        for await (const part of model.stream(request)) {
          started = true;
          yield part;
        }
        return;
      } catch (e) {
        if (started || !(e instanceof LlmError) || e.code !== 'llm_rate_limit' || attempt >= maxWaits) throw e;
        const asked = retryAfterMs(e);
        this.pause(asked ?? backoffDelay(attempt, { baseMs, maxDelayMs: 120_000 }), e.message);
      }
    }
  }
}
