// The agent run (Interactive-T2S loop with a QDecomp+InterCOL plan first): model turn -> calls
// -> observations, until `done` names SQL that ran, then that SQL is executed once more and
// explained back. Tools are injected (AgentTools): the page wraps DbEngine.callTool, the CLI
// passes the toolbox, so the loop does not know where the database lives. Every outcome, bad
// input and failure included, is an event; nothing is thrown at the consumer.

import { LlmError, type ChatDelta, type ChatMessage, type ChatModel, type ChatResponse, type Usage } from '../llm/types';
import type { QuestionLink } from '../retrieval/linker';
import { describeZodError, type ToolCallOutcome } from '../tools/registry';
import type { Schema } from '../types';
import { AbortedError, raceAbort, TimeLimitError, withTimeLimit } from './abort';
import type { AgentErrorCode, AgentEvent, AgentEventBody, UsageTotals } from './events';
import { parseExplanation, requestExplanation } from './explain';
import { RepairGuard, REPAIR_BLOCKED_NOTE, REPEAT_NOTE, RepeatGuard } from './guards';
import { planInput, planObservation, validatePlan } from './plan';
import { AGENT_TOOL_NAMES, buildAgentPrompt, doneInput, type AgentMode } from './prompt';
import { readSqlOutcome } from './sql-outcome';
import { nativeTurn, textReplyForHistory, textTurn, type AgentTurn, type TurnCall } from './turns';

/** Where the retrieval tools run: the registry's outcome shape, whatever the transport. */
export interface AgentTools {
  call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolCallOutcome>;
}

export interface RunAgentOptions {
  question: string;
  /** BIRD-style evidence from the user. */
  hints?: string;
  model: ChatModel;
  tools: AgentTools;
  schema: Schema;
  /** Structure-linker output for the question (DbEngine.linkQuestion / Toolbox.link). */
  links?: readonly QuestionLink[];
  maxTurns?: number;
  toolTimeoutMs?: number;
  /** Default: native when the model supports tool calling, else the text protocol. */
  mode?: AgentMode;
  signal?: AbortSignal;
  /** Repairs allowed after a failed execution before the model must change approach. */
  maxRepairs?: number;
  /** Rows of the final result carried by the `final` event. */
  finalRows?: number;
  /** Clock for `at` (tests). */
  now?: () => number;
}

type Step = 'continue' | 'end';

const PLAN_FIRST = 'The plan comes first: call submit_plan with the sub-questions and their tables and columns before any other tool.';
const DONE_TOO_EARLY = 'done refused: no execute_sql has succeeded yet. Run the SQL with execute_sql first, then call done with it.';

const limitText = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

export async function* runAgent(options: RunAgentOptions): AsyncGenerator<AgentEvent> {
  yield* new AgentRun(options).events();
}

class AgentRun {
  private readonly o: Required<Pick<RunAgentOptions, 'maxTurns' | 'toolTimeoutMs' | 'maxRepairs' | 'finalRows' | 'now'>> & RunAgentOptions;
  private readonly mode: AgentMode;
  private readonly messages: ChatMessage[] = [];
  private readonly request: { tools?: ReturnType<typeof buildAgentPrompt>['tools']; stop?: string[] };
  private readonly repeats = new RepeatGuard();
  private readonly repairs: RepairGuard;
  private step = 0;
  private planned = false;
  private executedOk = false;
  private noActionStreak = 0;
  private total: UsageTotals = { inputTokens: 0, outputTokens: 0, estimated: false };

  constructor(options: RunAgentOptions) {
    // `??` rather than spreading over defaults: an option passed as undefined keeps its default.
    this.o = {
      ...options,
      maxTurns: options.maxTurns ?? 12,
      toolTimeoutMs: options.toolTimeoutMs ?? 30_000,
      maxRepairs: options.maxRepairs ?? 2,
      finalRows: options.finalRows ?? 20,
      now: options.now ?? Date.now,
    };
    this.mode = options.mode ?? (options.model.supportsTools ? 'native' : 'text');
    this.repairs = new RepairGuard(this.o.maxRepairs);
    const prompt = buildAgentPrompt({ question: options.question, hints: options.hints, schema: options.schema, links: options.links, mode: this.mode });
    this.messages.push({ role: 'system', content: prompt.system }, { role: 'user', content: prompt.user });
    this.request = { tools: prompt.tools, stop: prompt.stop };
  }

  private ev(body: AgentEventBody): AgentEvent {
    return { ...body, step: this.step, at: this.o.now() } as AgentEvent;
  }

  private fail(code: AgentErrorCode, message: string): AgentEvent {
    return this.ev({ type: 'error', code, message });
  }

  async *events(): AsyncGenerator<AgentEvent> {
    try {
      for (let turn = 1; turn <= this.o.maxTurns; turn++) {
        if (this.o.signal?.aborted) throw new AbortedError();
        this.step = turn;
        yield this.ev({ type: 'status', turn, maxTurns: this.o.maxTurns });
        const t0 = this.o.now();
        const response = yield* this.chat();
        yield this.usage(response.usage, this.o.now() - t0, 'agent');
        const parsed = this.mode === 'native' ? nativeTurn(response) : textTurn(response);
        this.remember(response, parsed);
        if (parsed.thought) yield this.ev({ type: 'thought', text: parsed.thought });
        if (parsed.noAction !== undefined) {
          if ((yield* this.noAction(parsed)) === 'end') return;
          continue;
        }
        this.noActionStreak = 0;
        for (const call of parsed.calls) {
          if (this.o.signal?.aborted) throw new AbortedError();
          if ((yield* this.handle(call)) === 'end') return;
        }
      }
      yield this.fail('turn_limit', `No answer within ${this.o.maxTurns} turns.${this.executedOk ? ' SQL that ran is in the events above.' : ''}`);
    } catch (e) {
      if (e instanceof AbortedError || this.o.signal?.aborted) yield this.fail('aborted', 'Stopped.');
      else if (e instanceof LlmError) yield this.fail(e.code, e.message);
      else yield this.fail('internal', e instanceof Error ? e.message : String(e));
    }
  }

  /**
   * One agent-turn model call whose text deltas are yielded while it is in flight. The provider
   * pushes deltas through a callback and a generator cannot yield from inside one, so a queue sits
   * between them: the callback fills it and wakes the generator, which drains it until the call
   * settles. Pieces that arrive together are joined into one event to keep the stream short.
   */
  private async *chat(): AsyncGenerator<AgentEvent, ChatResponse> {
    const pending: string[] = [];
    let wake: (() => void) | null = null;
    let settled = false;
    const onDelta = (d: ChatDelta) => {
      if (d.type !== 'text' || !d.text) return;
      pending.push(d.text);
      wake?.();
    };
    const call = raceAbort(
      this.o.model.chat({ messages: [...this.messages], ...this.request, temperature: 0, signal: this.o.signal }, onDelta),
      this.o.signal,
    );
    const settle = () => { settled = true; wake?.(); };
    call.then(settle, settle); // the rejection itself is rethrown by the `await call` below
    for (;;) {
      if (pending.length) {
        yield this.ev({ type: 'thought_delta', text: pending.splice(0).join('') });
        continue;
      }
      if (settled) break;
      // Checking the queue and parking here happen in one synchronous stretch, so no delta can slip between them.
      await new Promise<void>((resolve) => { wake = resolve; });
      wake = null;
    }
    return await call;
  }

  private usage(usage: Usage | null, ms: number, phase: 'agent' | 'explain'): AgentEvent {
    this.total = {
      inputTokens: this.total.inputTokens + (usage?.inputTokens ?? 0),
      outputTokens: this.total.outputTokens + (usage?.outputTokens ?? 0),
      estimated: this.total.estimated || !usage || usage.estimated,
    };
    return this.ev({ type: 'usage', usage, total: { ...this.total }, ms, phase });
  }

  /** The assistant turn as the conversation keeps it. */
  private remember(response: ChatResponse, turn: AgentTurn) {
    if (this.mode === 'native') {
      this.messages.push({ role: 'assistant', content: response.text, ...(response.toolCalls.length ? { toolCalls: response.toolCalls } : {}) });
    } else {
      this.messages.push({ role: 'assistant', content: textReplyForHistory(response.text) || turn.thought });
    }
  }

  /** Sends an observation back (tool message or `Observation:` turn) and reports it. */
  private observe(call: TurnCall | null, text: string, ok: boolean, ms = 0): AgentEvent {
    if (this.mode === 'native' && call?.id) this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: text });
    else this.messages.push({ role: 'user', content: this.mode === 'text' ? `Observation: ${text}` : text });
    return this.ev({ type: 'observation', tool: call?.name ?? '', text, ok, ms, ...(call?.id ? { callId: call.id } : {}) });
  }

  /** A reply without a call: nudged once; twice in a row (or after the repair limit) it is the model giving up. */
  private async *noAction(turn: AgentTurn): AsyncGenerator<AgentEvent, Step> {
    this.noActionStreak++;
    if (this.noActionStreak >= 2 || this.repairs.blocked) {
      yield this.fail('gave_up', turn.thought || 'The model stopped without an answer.');
      return 'end';
    }
    yield this.observe(null, turn.noAction ?? 'No action.', false);
    return 'continue';
  }

  private async *handle(call: TurnCall): AsyncGenerator<AgentEvent, Step> {
    yield this.ev({ type: 'action', tool: call.name, args: 'args' in call ? call.args : null, ...(call.id ? { callId: call.id } : {}) });
    if ('error' in call) {
      yield this.observe(call, call.error, false);
      return 'continue';
    }
    if (!(AGENT_TOOL_NAMES as readonly string[]).includes(call.name)) {
      yield this.observe(call, `Unknown tool ${JSON.stringify(call.name)}. Tools: ${AGENT_TOOL_NAMES.join(', ')}.`, false);
      return 'continue';
    }
    const repeat = this.repeats.check(call.name, call.args);
    if (repeat === 'stop') {
      yield this.fail('repeated_call', `The model made the same ${call.name} call three times; the run was stopped.`);
      return 'end';
    }
    const note = repeat === 'repeat' ? `\n${REPEAT_NOTE}` : '';
    if (!this.planned && call.name !== 'submit_plan') {
      yield this.observe(call, PLAN_FIRST + note, false);
      return 'continue';
    }
    if (call.name === 'submit_plan') return yield* this.plan(call, note);
    if (call.name === 'done') return yield* this.done(call, note);
    if (call.name === 'execute_sql') return yield* this.execute(call, note);
    this.repairs.changedApproach();
    const outcome = await this.runTool(call.name, call.args);
    yield this.observe(call, outcome.observation + note, outcome.ok, outcome.ms);
    return 'continue';
  }

  private async *plan(call: Extract<TurnCall, { args: unknown }>, note: string): AsyncGenerator<AgentEvent, Step> {
    const parsed = planInput.safeParse(call.args);
    if (!parsed.success) {
      yield this.observe(call, `Bad arguments for submit_plan: ${describeZodError(parsed.error)}.${note}`, false);
      return 'continue';
    }
    const { plan, problems } = validatePlan(parsed.data, this.o.schema);
    this.planned = true;
    this.repairs.changedApproach();
    yield this.ev({ type: 'plan', plan, problems });
    yield this.observe(call, planObservation(plan, problems) + note, true);
    return 'continue';
  }

  private async *execute(call: Extract<TurnCall, { args: unknown }>, note: string): AsyncGenerator<AgentEvent, Step> {
    if (this.repairs.blocked) {
      yield this.observe(call, REPAIR_BLOCKED_NOTE + note, false);
      return 'continue';
    }
    const outcome = await this.runTool('execute_sql', call.args);
    const sql = readSqlOutcome(outcome);
    let text = outcome.observation;
    if (sql) {
      yield this.ev({ type: 'sql', sql: sql.sql, ok: sql.ok, summary: sql.summary });
      // An empty result can be the answer ("which … none"); it still counts as a repair round.
      if (sql.ok) this.executedOk = true;
      const repair = this.repairs.record(sql.ok && !sql.empty);
      if (repair) text += `\n${repair}`;
    }
    yield this.observe(call, text + note, outcome.ok && !!sql?.ok, outcome.ms);
    return 'continue';
  }

  private async *done(call: Extract<TurnCall, { args: unknown }>, note: string): AsyncGenerator<AgentEvent, Step> {
    const parsed = doneInput.safeParse(call.args);
    if (!parsed.success) {
      yield this.observe(call, `Bad arguments for done: ${describeZodError(parsed.error)}.${note}`, false);
      return 'continue';
    }
    if (!this.executedOk) {
      yield this.observe(call, DONE_TOO_EARLY + note, false);
      return 'continue';
    }
    // The final SQL is run once more (read-only, rows capped) so what is shown is what it returns.
    const outcome = await this.runTool('execute_sql', { sql: parsed.data.sql });
    const result = readSqlOutcome(outcome);
    if (!result?.ok) {
      const repair = result ? this.repairs.record(false) : '';
      yield this.observe(call, `done refused: the SQL failed when run.\n${outcome.observation}${repair ? `\n${repair}` : ''}${note}`, false, outcome.ms);
      return 'continue';
    }
    yield this.ev({ type: 'sql', sql: result.sql, ok: true, summary: result.summary });
    yield this.observe(call, `Final SQL accepted: ${result.summary}.`, true, outcome.ms);
    yield* this.finish(result);
    return 'end';
  }

  private async *finish(result: NonNullable<ReturnType<typeof readSqlOutcome>>): AsyncGenerator<AgentEvent> {
    const rows = result.rows.slice(0, this.o.finalRows);
    const base = { type: 'final' as const, sql: result.sql, columns: result.columns, rows, totalRows: result.totalRows, truncated: result.truncated || rows.length < result.rows.length };
    this.step++;
    const t0 = this.o.now();
    try {
      const response = await raceAbort(
        requestExplanation(this.o.model, { question: this.o.question, hints: this.o.hints, sql: result.sql, columns: result.columns, rows, totalRows: result.totalRows }, this.o.signal),
        this.o.signal,
      );
      yield this.usage(response.usage, this.o.now() - t0, 'explain');
      const explained = parseExplanation(response.text);
      if (explained) yield this.ev({ ...base, ...explained });
      else yield this.ev({ ...base, explanation: null, verdict: 'unsure', note: 'The model gave no explanation.' });
    } catch (e) {
      // The SQL and its rows are the answer; a failed explanation must not lose them.
      const why = e instanceof AbortedError || this.o.signal?.aborted ? 'Stopped before the explanation was written.' : `The explanation could not be written: ${e instanceof Error ? e.message : String(e)}`;
      yield this.ev({ ...base, explanation: null, verdict: 'unsure', note: why });
    }
  }

  /** One retrieval tool call with the time limit; failures and time-outs are outcomes. Stop throws. */
  private async runTool(name: string, args: unknown): Promise<ToolCallOutcome> {
    const t0 = this.o.now();
    try {
      return await withTimeLimit((s) => this.o.tools.call(name, args, s), this.o.toolTimeoutMs, this.o.signal);
    } catch (e) {
      if (e instanceof AbortedError) throw e;
      const ms = this.o.now() - t0;
      const message = e instanceof TimeLimitError
        ? `${name} did not finish within ${limitText(this.o.toolTimeoutMs)} and was stopped. Try a narrower call or simpler SQL.`
        : `${name} failed: ${e instanceof Error ? e.message : String(e)}`;
      return { ok: false, tool: name, error: 'tool_failed', observation: message, ms };
    }
  }
}
