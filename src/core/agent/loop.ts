// The agent run (Interactive-T2S loop with a QDecomp+InterCOL plan first): model turn -> calls
// -> observations, until `done` names SQL that ran, then that SQL is executed once more and
// explained back. Tools are injected (AgentTools): the page wraps DbEngine.callTool, the CLI
// passes the toolbox, so the loop does not know where the database lives. Every outcome, bad
// input and failure included, is an event; nothing is thrown at the consumer.

import { LlmError, type ChatMessage, type ChatModel, type ChatResponse, type Usage } from '../llm/types';
import type { QuestionLink } from '../retrieval/linker';
import { describeZodError, type ToolCallOutcome } from '../tools/registry';
import type { Schema } from '../types';
import { AbortedError, raceAbort, TimeLimitError, withTimeLimit } from './abort';
import {
  ambiguitySignal,
  answerObservation,
  ASKED_ALREADY,
  askUserInput,
  NO_PERSON,
  NO_SIGNAL,
  type AskUser,
} from './ask-user';
import { streamChat } from './chat-stream';
import type { AgentErrorCode, AgentEvent, AgentEventBody, UsageTotals } from './events';
import { parseExplanation, requestExplanation } from './explain';
import { RepairGuard, REPAIR_BLOCKED_NOTE, REPEAT_NOTE, RepeatGuard } from './guards';
import { checkGivenPlan, planInput, planObservation, validatePlan, type Plan } from './plan';
import { CONFIRMED_NO_REPLAN, confirmedObservation, editedObservation, type OnPlan } from './plan-pause';
import {
  AGENT_TOOL_NAMES,
  buildAgentPrompt,
  CONFIRMED_TOOL_NAMES,
  doneInput,
  type AgentMode,
  type AgentPrompt,
  type AgentToolName,
} from './prompt';
import type { PromptInput } from './prompt';
import { readSqlOutcome, type SqlOutcome } from './sql-outcome';
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
  /** A plan the person confirmed (or edited): checked against the schema, then the model starts from it without planning. */
  confirmedPlan?: Plan;
  /** Confirmed examples of this database, most similar first; added to the prompt as the user's. */
  userExamples?: PromptInput['userExamples'];
  /** Pause after plan: called after the model's plan is accepted; the run waits for Continue (maybe with an edit) or Stop. */
  onPlan?: OnPlan;
  /** Shows an ask_user question to the person; without it the model is told to decide itself. */
  askUser?: AskUser;
}

/** What differs between the agent run and a step check (check-step.ts) sharing this loop. */
export interface RunSetup {
  prompt: AgentPrompt;
  offered: readonly AgentToolName[];
  /** The person's plan: reported first, no planning step, submit_plan refused. */
  confirmedPlan?: Plan;
  /** The agent run finishes only after a successful execute_sql; a step check may finish at once (done runs the SQL). */
  doneNeedsExecute: boolean;
}

type Step = 'continue' | 'end';
type ArgsCall = Extract<TurnCall, { args: unknown }>;
export type OkSqlOutcome = Extract<SqlOutcome, { ok: true }>;

const PLAN_FIRST =
  'The plan comes first: call submit_plan with the sub-questions and their tables and columns before any other tool.';
const DONE_TOO_EARLY =
  'done refused: no execute_sql has succeeded yet. Run the SQL with execute_sql first, then call done with it.';

const limitText = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

export const agentMode = (o: { mode?: AgentMode; model: ChatModel }): AgentMode =>
  o.mode ?? (o.model.supportsTools ? 'native' : 'text');

export async function* runAgent(options: RunAgentOptions): AsyncGenerator<AgentEvent> {
  let confirmedPlan: Plan | undefined;
  if (options.confirmedPlan !== undefined) {
    // Checked before any model call: a confirmed plan with unknown names would only mislead the model.
    const checked = checkGivenPlan(options.confirmedPlan, options.schema);
    if (!checked.ok) {
      yield { type: 'error', code: 'bad_plan', message: checked.message, step: 0, at: (options.now ?? Date.now)() };
      return;
    }
    confirmedPlan = checked.plan;
  }
  const mode = agentMode(options);
  const prompt = buildAgentPrompt({
    question: options.question,
    hints: options.hints,
    schema: options.schema,
    links: options.links,
    mode,
    confirmedPlan,
    userExamples: options.userExamples,
  });
  const offered = confirmedPlan ? CONFIRMED_TOOL_NAMES : AGENT_TOOL_NAMES;
  yield* new AgentRun(options, { prompt, offered, confirmedPlan, doneNeedsExecute: true }).events();
}

export class AgentRun {
  protected readonly o: Required<
    Pick<RunAgentOptions, 'maxTurns' | 'toolTimeoutMs' | 'maxRepairs' | 'finalRows' | 'now'>
  > &
    RunAgentOptions;
  private readonly mode: AgentMode;
  private readonly messages: ChatMessage[] = [];
  private readonly request: { tools?: AgentPrompt['tools']; stop?: string[] };
  private readonly repeats = new RepeatGuard();
  private readonly repairs: RepairGuard;
  protected step = 0;
  private planned: boolean;
  /** The person confirmed the plan: re-planning is refused. */
  private confirmed: boolean;
  private asked = false;
  /** Ambiguity seen in tool results so far: asking the person is allowed only after one. */
  private readonly signals: string[] = [];
  private executedOk = false;
  private noActionStreak = 0;
  private total: UsageTotals = { inputTokens: 0, outputTokens: 0, estimated: false };

  constructor(
    options: RunAgentOptions,
    private readonly setup: RunSetup,
  ) {
    // `??` rather than spreading over defaults: an option passed as undefined keeps its default.
    this.o = {
      ...options,
      maxTurns: options.maxTurns ?? 12,
      toolTimeoutMs: options.toolTimeoutMs ?? 30_000,
      maxRepairs: options.maxRepairs ?? 2,
      finalRows: options.finalRows ?? 20,
      now: options.now ?? Date.now,
    };
    this.mode = agentMode(options);
    this.repairs = new RepairGuard(this.o.maxRepairs);
    const { prompt } = setup;
    this.messages.push({ role: 'system', content: prompt.system }, { role: 'user', content: prompt.user });
    this.request = { tools: prompt.tools, stop: prompt.stop };
    this.confirmed = !!setup.confirmedPlan;
    // Without submit_plan on offer there is no planning step to insist on.
    this.planned = this.confirmed || !setup.offered.includes('submit_plan');
  }

  protected ev(body: AgentEventBody): AgentEvent {
    return { ...body, step: this.step, at: this.o.now() } as AgentEvent;
  }

  private fail(code: AgentErrorCode, message: string): AgentEvent {
    return this.ev({ type: 'error', code, message });
  }

  async *events(): AsyncGenerator<AgentEvent> {
    try {
      if (this.setup.confirmedPlan)
        yield this.ev({ type: 'plan', plan: this.setup.confirmedPlan, problems: [], confirmed: true });
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
      yield this.fail(
        'turn_limit',
        `No answer within ${this.o.maxTurns} turns.${this.executedOk ? ' SQL that ran is in the events above.' : ''}`,
      );
    } catch (e) {
      if (e instanceof AbortedError || this.o.signal?.aborted) yield this.fail('aborted', 'Stopped.');
      else if (e instanceof LlmError) yield this.fail(e.code, e.message);
      else yield this.fail('internal', e instanceof Error ? e.message : String(e));
    }
  }

  /** One agent-turn model call, its text deltas yielded while it runs. */
  private chat(): AsyncGenerator<AgentEvent, ChatResponse> {
    const request = { messages: [...this.messages], ...this.request, temperature: 0 };
    return streamChat(this.o.model, request, (text) => this.ev({ type: 'thought_delta', text }), this.o.signal);
  }

  protected usage(usage: Usage | null, ms: number, phase: 'agent' | 'explain'): AgentEvent {
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
      this.messages.push({
        role: 'assistant',
        content: response.text,
        ...(response.toolCalls.length ? { toolCalls: response.toolCalls } : {}),
      });
    } else {
      this.messages.push({ role: 'assistant', content: textReplyForHistory(response.text) || turn.thought });
    }
  }

  /** Sends an observation back (tool message or `Observation:` turn) and reports it. */
  private observe(call: TurnCall | null, text: string, ok: boolean, ms = 0): AgentEvent {
    if (this.mode === 'native' && call?.id)
      this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: text });
    else this.messages.push({ role: 'user', content: this.mode === 'text' ? `Observation: ${text}` : text });
    return this.ev({
      type: 'observation',
      tool: call?.name ?? '',
      text,
      ok,
      ms,
      ...(call?.id ? { callId: call.id } : {}),
    });
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
    yield this.ev({
      type: 'action',
      tool: call.name,
      args: 'args' in call ? call.args : null,
      ...(call.id ? { callId: call.id } : {}),
    });
    if ('error' in call) {
      yield this.observe(call, call.error, false);
      return 'continue';
    }
    if (call.name === 'submit_plan' && this.confirmed) {
      yield this.observe(call, CONFIRMED_NO_REPLAN, false);
      return 'continue';
    }
    if (!(this.setup.offered as readonly string[]).includes(call.name)) {
      yield this.observe(
        call,
        `Unknown tool ${JSON.stringify(call.name)}. Tools: ${this.setup.offered.join(', ')}.`,
        false,
      );
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
    if (call.name === 'ask_user') return yield* this.ask(call, note);
    if (call.name === 'execute_sql') return yield* this.execute(call, note);
    this.repairs.changedApproach();
    const outcome = await this.runTool(call.name, call.args);
    const signal = outcome.ok ? ambiguitySignal(call.name, call.args, outcome.output) : null;
    if (signal) this.signals.push(signal);
    yield this.observe(call, outcome.observation + note, outcome.ok, outcome.ms);
    return 'continue';
  }

  private async *plan(call: ArgsCall, note: string): AsyncGenerator<AgentEvent, Step> {
    const parsed = planInput.safeParse(call.args);
    if (!parsed.success) {
      yield this.observe(call, `Bad arguments for submit_plan: ${describeZodError(parsed.error)}.${note}`, false);
      return 'continue';
    }
    const { plan, problems } = validatePlan(parsed.data, this.o.schema);
    this.planned = true;
    this.repairs.changedApproach();
    yield this.ev({ type: 'plan', plan, problems });
    // The person reviews a plan whose names are real; a plan with problems goes back to the model first.
    if (!this.o.onPlan || problems.length) {
      yield this.observe(call, planObservation(plan, problems) + note, true);
      return 'continue';
    }
    yield this.ev({ type: 'plan_waiting', plan });
    const decision = await raceAbort(this.o.onPlan(plan), this.o.signal);
    if (decision.action === 'stop') {
      yield this.fail('aborted', 'Stopped after the plan.');
      return 'end';
    }
    this.confirmed = true;
    if (!('plan' in decision)) {
      yield this.ev({ type: 'plan', plan, problems: [], confirmed: true });
      yield this.observe(call, confirmedObservation(plan) + note, true);
      return 'continue';
    }
    const edited = planInput.safeParse(decision.plan);
    if (!edited.success) {
      yield this.fail(
        'bad_plan',
        `The edited plan is not in the submit_plan shape: ${describeZodError(edited.error)}.`,
      );
      return 'end';
    }
    const checked = validatePlan(edited.data, this.o.schema);
    yield this.ev({ type: 'plan', plan: checked.plan, problems: checked.problems, confirmed: true, edited: true });
    yield this.observe(call, editedObservation(checked.plan, checked.problems) + note, true);
    return 'continue';
  }

  /** ask_user: once per run, the answer (or the lack of a person) as the observation. */
  private async *ask(call: ArgsCall, note: string): AsyncGenerator<AgentEvent, Step> {
    const parsed = askUserInput.safeParse(call.args);
    if (!parsed.success) {
      yield this.observe(call, `Bad arguments for ask_user: ${describeZodError(parsed.error)}.${note}`, false);
      return 'continue';
    }
    if (this.asked) {
      yield this.observe(call, ASKED_ALREADY + note, false);
      return 'continue';
    }
    // Asking must stay rare: only after a tool result showed one of the ambiguity signals.
    if (this.signals.length === 0) {
      yield this.observe(call, NO_SIGNAL + note, false);
      return 'continue';
    }
    this.asked = true;
    if (!this.o.askUser) {
      yield this.observe(call, NO_PERSON + note, true);
      return 'continue';
    }
    yield this.ev({
      type: 'ask',
      question: parsed.data.question,
      options: parsed.data.options,
      ...(call.id ? { callId: call.id } : {}),
    });
    let answer: string;
    try {
      answer = await raceAbort(this.o.askUser(parsed.data), this.o.signal);
    } catch (e) {
      if (e instanceof AbortedError || this.o.signal?.aborted) throw e;
      yield this.observe(
        call,
        `The question could not be shown (${e instanceof Error ? e.message : String(e)}). ${NO_PERSON}${note}`,
        false,
      );
      return 'continue';
    }
    yield this.observe(call, answerObservation(answer) + note, true);
    return 'continue';
  }

  private async *execute(call: ArgsCall, note: string): AsyncGenerator<AgentEvent, Step> {
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

  private async *done(call: ArgsCall, note: string): AsyncGenerator<AgentEvent, Step> {
    const parsed = doneInput.safeParse(call.args);
    if (!parsed.success) {
      yield this.observe(call, `Bad arguments for done: ${describeZodError(parsed.error)}.${note}`, false);
      return 'continue';
    }
    if (this.setup.doneNeedsExecute && !this.executedOk) {
      yield this.observe(call, DONE_TOO_EARLY + note, false);
      return 'continue';
    }
    // The final SQL is run once more (read-only, rows capped) so what is shown is what it returns.
    const outcome = await this.runTool('execute_sql', { sql: parsed.data.sql });
    const result = readSqlOutcome(outcome);
    if (!result || !result.ok) {
      const repair = result ? this.repairs.record(false) : '';
      yield this.observe(
        call,
        `done refused: the SQL failed when run.\n${outcome.observation}${repair ? `\n${repair}` : ''}${note}`,
        false,
        outcome.ms,
      );
      return 'continue';
    }
    yield this.ev({ type: 'sql', sql: result.sql, ok: true, summary: result.summary });
    yield this.observe(call, `Final SQL accepted: ${result.summary}.`, true, outcome.ms);
    yield* this.finish(result);
    return 'end';
  }

  /** The closing events once done's SQL ran; a step check shows rows instead of explaining. */
  protected async *finish(result: OkSqlOutcome): AsyncGenerator<AgentEvent> {
    const rows = result.rows.slice(0, this.o.finalRows);
    const base = {
      type: 'final' as const,
      sql: result.sql,
      columns: result.columns,
      rows,
      totalRows: result.totalRows,
      truncated: result.truncated || rows.length < result.rows.length,
    };
    this.step++;
    const t0 = this.o.now();
    try {
      const response = await raceAbort(
        requestExplanation(
          this.o.model,
          {
            question: this.o.question,
            hints: this.o.hints,
            sql: result.sql,
            columns: result.columns,
            rows,
            totalRows: result.totalRows,
          },
          this.o.signal,
        ),
        this.o.signal,
      );
      yield this.usage(response.usage, this.o.now() - t0, 'explain');
      const explained = parseExplanation(response.text);
      if (explained) yield this.ev({ ...base, ...explained });
      else yield this.ev({ ...base, explanation: null, verdict: 'unsure', note: 'The model gave no explanation.' });
    } catch (e) {
      // The SQL and its rows are the answer; a failed explanation must not lose them.
      const why =
        e instanceof AbortedError || this.o.signal?.aborted
          ? 'Stopped before the explanation was written.'
          : `The explanation could not be written: ${e instanceof Error ? e.message : String(e)}`;
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
      const message =
        e instanceof TimeLimitError
          ? `${name} did not finish within ${limitText(this.o.toolTimeoutMs)} and was stopped. Try a narrower call or simpler SQL.`
          : `${name} failed: ${e instanceof Error ? e.message : String(e)}`;
      return { ok: false, tool: name, error: 'tool_failed', observation: message, ms };
    }
  }
}
