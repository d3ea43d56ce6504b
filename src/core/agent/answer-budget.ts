// One answer has a budget (decision 068): wall time, and the characters of all its model replies
// together. A server that drips a byte every few milliseconds for ever never trips the wait limit
// of a request (llm/stream-guard.ts), and many replies each under the reply cap (llm/reply-cap.ts)
// pass that one; the budget ends both. The person's own time (a question the model asks them, a
// pause after the plan) is not counted. Spent, the run ends with an `answer_limit` error while
// what it did stays: the events before it have gone to the page or the CLI already.

import { partChars } from '../llm/reply-cap';
import { limitText } from '../llm/stream-guard';
import { LlmError, withStream, type ChatModel, type ChatRequest, type ChatStreamPart } from '../llm/types';
import { abortable, AbortedError } from './abort';
import type { AskUser } from './ask-user';
import type { AgentEvent } from './events';
import type { OnPlan } from './plan-pause';

export interface AnswerLimits {
  /** Wall time of one answer, the person's waits not counted. */
  timeMs: number;
  /** Characters of all the answer's model replies together. */
  replyChars: number;
  /** How the person raises the time limit, the end of the message ("raise it with --answer-time <s>"). */
  raiseHint?: string;
}

/**
 * 15 minutes (decision 068): an agent run makes up to about 20 requests (12 turns, the check, the
 * explanation, Auto's first ones); at half a minute each, as a local model on a CPU takes, that is
 * 10 minutes. A hosted model answers in one or two.
 */
export const DEFAULT_ANSWER_TIME_MS = 15 * 60_000;

/** Twice one reply's cap: a real answer's replies together are a few ten thousand characters. */
export const MAX_ANSWER_REPLY_CHARS = 2_000_000;

export function answerLimits(timeMs = DEFAULT_ANSWER_TIME_MS, raiseHint?: string): AnswerLimits {
  return { timeMs, replyChars: MAX_ANSWER_REPLY_CHARS, ...(raiseHint ? { raiseHint } : {}) };
}

const KEPT = 'what it did so far is kept';

/**
 * The clock and the count of one answer. `signal` aborts on the caller's Stop or once the budget is
 * spent (the run winds down through it); `model()` counts the replies and fails a request in
 * flight when the budget is spent. `end()` clears the clock.
 */
export class AnswerBudget {
  private readonly spentController = new AbortController();
  private readonly runController = new AbortController();
  private chars = 0;
  /** Time counted before the current stretch; the stretch began at `since` (null while the person is asked). */
  private used = 0;
  private since: number | null;
  private asked = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Why the budget is spent, once it is. */
  message: string | null = null;

  constructor(
    readonly limits: AnswerLimits,
    private readonly parent?: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {
    this.since = now();
    if (parent?.aborted) this.runController.abort();
    else parent?.addEventListener('abort', this.stop, { once: true });
    this.arm();
  }

  /** Aborts on Stop or when the budget is spent. */
  get signal(): AbortSignal {
    return this.runController.signal;
  }

  /** Aborts only when the budget is spent. */
  get spent(): AbortSignal {
    return this.spentController.signal;
  }

  private readonly stop = () => this.runController.abort();

  private arm() {
    const left = Math.max(0, this.limits.timeMs - this.used);
    this.timer = setTimeout(() => {
      const hint =
        this.limits.raiseHint ?? 'raise the time limit of an answer (--answer-time in the CLI, Settings on the page)';
      this.spend(
        `No answer within ${limitText(this.limits.timeMs)} (the time limit of an answer), so the run was stopped; ${KEPT}. If the model is just slow, ${hint}.`,
      );
    }, left);
  }

  private spend(message: string) {
    if (this.message) return;
    this.message = message;
    clearTimeout(this.timer);
    this.spentController.abort();
    this.runController.abort();
  }

  /** Runs `wait` (the person answering) with the clock stopped. */
  async whileAsked<T>(wait: () => Promise<T>): Promise<T> {
    if (this.asked++ === 0 && this.since !== null) {
      clearTimeout(this.timer);
      this.used += this.now() - this.since;
      this.since = null;
    }
    try {
      return await wait();
    } finally {
      if (--this.asked === 0 && !this.message) {
        this.since = this.now();
        this.arm();
      }
    }
  }

  /** `model` with its replies counted against the budget. */
  model(model: ChatModel): ChatModel {
    return withStream(model, (request) => this.stream(model, request));
  }

  private async *stream(model: ChatModel, request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    // The request is aborted too, not only left: a stalled fetch would otherwise hold its connection.
    const controller = new AbortController();
    const abort = () => controller.abort();
    const signals = [request.signal, this.spent];
    for (const s of signals)
      if (s?.aborted) abort();
      else s?.addEventListener('abort', abort, { once: true });
    try {
      if (this.message) throw this.error();
      for await (const part of abortable(model.stream({ ...request, signal: controller.signal }), this.spent)) {
        this.chars += partChars(part);
        if (this.chars > this.limits.replyChars)
          this.spend(
            `The model's replies in this answer passed ${this.limits.replyChars.toLocaleString('en-US')} characters, so the run was stopped; ${KEPT}.`,
          );
        if (this.message) throw this.error();
        yield part;
      }
    } catch (e) {
      throw this.message ? this.error() : e;
    } finally {
      for (const s of signals) s?.removeEventListener('abort', abort);
    }
  }

  private error(): LlmError {
    return new LlmError('llm_timeout', this.message ?? '');
  }

  end(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.stop);
  }
}

/** What a run takes that the budget wraps: its model, Stop, and where it waits for the person. */
interface BudgetedOptions {
  model: ChatModel;
  signal?: AbortSignal;
  now?: () => number;
  askUser?: AskUser | 'first-option';
  onPlan?: OnPlan;
}

const TERMINAL = new Set<AgentEvent['type']>(['final', 'step_preview', 'error']);

/**
 * `run` within the budget: its model counted, its signal aborted when the budget is spent, the
 * person's waits off the clock. A run that is still busy then (a tool, a model that ignores its
 * signal) is not waited for: the `answer_limit` error follows the events it gave.
 */
export async function* withAnswerBudget<O extends BudgetedOptions>(
  limits: AnswerLimits,
  options: O,
  run: (options: O) => AsyncGenerator<AgentEvent>,
): AsyncGenerator<AgentEvent> {
  const now = options.now ?? Date.now;
  const budget = new AnswerBudget(limits, options.signal, now);
  const { askUser, onPlan } = options;
  const asked: AskUser | undefined =
    typeof askUser === 'function' ? (q) => budget.whileAsked(() => askUser(q)) : undefined;
  const paused: OnPlan | undefined = onPlan ? (plan) => budget.whileAsked(() => onPlan(plan)) : undefined;
  const inner = run({
    ...options,
    model: budget.model(options.model),
    signal: budget.signal,
    ...(asked ? { askUser: asked } : {}),
    ...(paused ? { onPlan: paused } : {}),
  });
  let step = 0;
  let ended = false;
  try {
    for await (const e of abortable(inner, budget.spent)) {
      step = e.step;
      ended ||= TERMINAL.has(e.type);
      yield e;
    }
  } catch (e) {
    if (!(e instanceof AbortedError) || !budget.message) throw e;
    if (!ended) yield { type: 'error', code: 'answer_limit', message: budget.message, step, at: now() };
  } finally {
    budget.end();
  }
}
