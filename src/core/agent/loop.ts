// The agent run (Interactive-T2S loop with a QDecomp+InterCOL plan first): model turn -> calls
// -> observations, until `done` names SQL that ran, then that SQL is executed once more and
// explained back. Tools are injected (AgentTools): the page and the CLI both wrap DbEngine.callTool
// and DbEngine.grounding (the page's worker; `agentToolsOf` over the CLI's worker thread, and the
// eval's engine), so the loop does not know where the database lives. Every outcome, bad
// input and failure included, is an event; nothing is thrown at the consumer.

import { localDate } from '../prompt/today';
import { LlmError, type ChatMessage, type ChatModel, type ChatResponse, type Usage } from '../llm/types';
import { withModelView, withPrivacy, type PrivacyLevel, type PrivacyPolicy, runPolicy } from '../privacy/disclose';
import { unmark } from '../privacy/marks';
import type { QuestionLink } from '../retrieval/linker';
import type { ToolCallOutcome } from '../tools/registry';
import type { Grounding } from '../prompt/grounded-schema';
import type { PriorTurn } from './thread';
import type { AnswerLimits } from './answer-budget';
import type { Schema } from '../types';
import { AbortedError, TimeLimitError, withTimeLimit } from './abort';
import { ambiguitySignal, FOLLOW_UP_SIGNAL, type AskUser } from './ask-user';
import {
  addUsage,
  NO_USAGE,
  type AgentErrorCode,
  type AgentEvent,
  type AgentEventBody,
  type UsageTotals,
} from './events';
import { RepairGuard, REPEAT_NOTE, RepeatGuard } from './guards';
import { compactObservation } from './compact';
import { streamTurn } from './model-turn';
import { checkGivenPlan, type Plan } from './plan';
import { CONFIRMED_NO_REPLAN, type OnPlan } from './plan-pause';
import {
  AGENT_TOOL_NAMES,
  buildAgentPrompt,
  CONFIRMED_TOOL_NAMES,
  type AgentMode,
  type AgentPrompt,
  type AgentToolName,
  type PromptInput,
} from './prompt';
import { askStep } from './steps/ask-step';
import { checkAnswer, explainFinish, type AnswerCheck } from './steps/explain-step';
import { planStep } from './steps/plan-step';
import type { FinishOptions, OkSqlOutcome, RunHost, RunState, Step } from './steps/run-host';
import { codeAssumptionNote, codeAssumptionReader, type CodeAssumption } from './code-evidence';
import { doneStep, executeStep } from './steps/sql-steps';
import { readSqlOutcome } from './sql-outcome';
import { resolveToolName } from './tool-name';
import { nativeTurn, textReplyForHistory, textTurn, type AgentTurn, type TurnCall } from './turns';
import { errorData } from '../tools/quote-data';
import { toDowserError } from '../errors';

/**
 * Calls of one turn that are run (issue 28): a reply of 10,000 calls kept the page busy for half
 * an hour. The rest are not run, and the model is told so; native calls of a turn that do not
 * depend on each other are a handful.
 */
export const MAX_CALLS_PER_TURN = 16;

export type { OkSqlOutcome } from './steps/run-host';

/** Where the retrieval tools run: the registry's outcome shape, whatever the transport. */
export interface AgentTools {
  call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolCallOutcome>;
  /** Column statistics and inferred keys for Auto's grounded request (DbEngine.grounding); absent: the schema alone. */
  grounding?(signal?: AbortSignal): Promise<Grounding>;
}

export interface RunAgentOptions {
  question: string;
  /** BIRD-style evidence from the user. */
  hints?: string;
  model: ChatModel;
  /**
   * What of the database's cell values may reach the model (privacy/disclose.ts); default full.
   * Every request of the run, the explanation included, passes the gate at this level.
   */
  privacy?: PrivacyLevel;
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
  /**
   * Shorten observations the model has acted on in later requests (compact.ts). Off by default:
   * measured on 43 conversations it saved 0.2% of the input tokens (decision 003), less than a
   * model that must look a result up again would cost. `dowser eval --compact-observations`.
   */
  compactObservations?: boolean;
  /** Clock for `at` (tests). */
  now?: () => number;
  /** The person's date, YYYY-MM-DD (default: this machine's clock), said in prompts of databases with dates. */
  today?: string;
  /** A plan the person confirmed (or edited): checked against the schema, then the model starts from it without planning. */
  confirmedPlan?: Plan;
  /**
   * The confirmed plan was written in another run (the page's plan card), maybe at a fuller
   * privacy level: the values it quotes are marked as values. A plan file the person wrote (the
   * CLI's --plan) is theirs as written.
   */
  planFromAnotherRun?: boolean;
  /** Confirmed examples of this database, most similar first; added to the prompt as the user's. */
  userExamples?: PromptInput['userExamples'];
  /** Pause after plan: called after the model's plan is accepted; the run waits for Continue (maybe with an edit) or Stop. */
  onPlan?: OnPlan;
  /** Shows an ask_user question to the person; without it the model is told to decide itself. */
  /**
   * Shows an ask_user question to the person; 'first-option' when nobody can answer (CLI
   * --non-interactive): the first option is taken and both the event and the model are told so.
   */
  askUser?: AskUser | 'first-option';
  /** What Auto tried before handing over to the agent (one-shot.ts), quoted as data in the prompt. */
  carryOver?: string;
  /** The conversation's earlier turns (thread.ts), oldest first: the question may follow up on them. */
  history?: readonly PriorTurn[];
  /** The answer's time and reply budget (answer-budget.ts), applied by runAnswer; its defaults when absent. */
  answerLimits?: AnswerLimits;
}

/** What differs between the agent run and a step check (check-step.ts) sharing this loop. */
export interface RunSetup {
  prompt: AgentPrompt;
  offered: readonly AgentToolName[];
  /** The person's plan: reported first, no planning step, submit_plan refused. */
  confirmedPlan?: Plan;
  /** done without an explanation of rows the model saw gets a check of its result (a step check shows rows instead). */
  checksAnswer: boolean;
}

const PLAN_FIRST =
  'The plan comes first: call submit_plan with the sub-questions and their tables and columns before any other tool.';

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
    planFromAnotherRun: options.planFromAnotherRun,
    userExamples: options.userExamples,
    carryOver: options.carryOver,
    history: options.history,
    today: options.today ?? localDate(new Date()),
  });
  const offered = confirmedPlan ? CONFIRMED_TOOL_NAMES : AGENT_TOOL_NAMES;
  yield* new AgentRun(options, { prompt, offered, confirmedPlan, checksAnswer: true }).events();
}

export class AgentRun implements RunHost {
  readonly o: Required<Pick<RunAgentOptions, 'maxTurns' | 'toolTimeoutMs' | 'maxRepairs' | 'finalRows' | 'now'>> &
    RunAgentOptions;
  private readonly mode: AgentMode;
  private readonly messages: ChatMessage[] = [];
  private readonly request: { tools?: AgentPrompt['tools']; stop?: string[] };
  private readonly repeats = new RepeatGuard();
  readonly repairs: RepairGuard;
  readonly state: RunState;
  readonly offered: readonly AgentToolName[];
  readonly checksAnswer: boolean;
  protected step = 0;
  private noActionStreak = 0;
  /** Observations the model has not replied to yet (shortened once it has: compact.ts). */
  private unread: Array<{ index: number; tool: string; text: string; prefix: string }> = [];
  private total: UsageTotals = NO_USAGE;
  /** What of the cell values the model may read (the gate is in `o.model`; events say what it withheld). */
  private readonly policy: PrivacyPolicy;

  constructor(
    options: RunAgentOptions,
    private readonly setup: RunSetup,
  ) {
    // What the model reads of an observation, shown beside it: the same policy as the gate's.
    this.policy = runPolicy(options.privacy ?? 'full', options.question, options.history);
    // `??` rather than spreading over defaults: an option passed as undefined keeps its default.
    this.o = {
      ...options,
      maxTurns: options.maxTurns ?? 12,
      toolTimeoutMs: options.toolTimeoutMs ?? 30_000,
      maxRepairs: options.maxRepairs ?? 2,
      finalRows: options.finalRows ?? 20,
      now: options.now ?? Date.now,
      model: withPrivacy(options.model, this.policy),
    };
    this.mode = agentMode(options);
    this.repairs = new RepairGuard(this.o.maxRepairs);
    const { prompt } = setup;
    this.messages.push({ role: 'system', content: prompt.system }, { role: 'user', content: prompt.user });
    this.request = { tools: prompt.tools, stop: prompt.stop };
    const confirmed = !!setup.confirmedPlan;
    // Without submit_plan on offer there is no planning step to insist on.
    const planned = confirmed || !setup.offered.includes('submit_plan');
    this.state = {
      planned,
      confirmed,
      asked: false,
      // In a conversation the question may follow up on something the thread does not settle.
      signals: options.history?.length ? [FOLLOW_UP_SIGNAL] : [],
      seenSql: new Set(),
      objected: false,
    };
    this.offered = setup.offered;
    this.checksAnswer = setup.checksAnswer;
    this.codesIn = codeAssumptionReader(this.o.tools, this.o.schema, this.o, this.o.signal);
  }

  ev(body: AgentEventBody): AgentEvent {
    return { ...body, step: this.step, at: this.o.now() } as AgentEvent;
  }

  fail(code: AgentErrorCode, message: string): AgentEvent {
    return this.ev({ type: 'error', code, message });
  }

  async *events(): AsyncGenerator<AgentEvent> {
    try {
      if (this.setup.confirmedPlan)
        yield this.ev({ type: 'plan', plan: this.setup.confirmedPlan, problems: [], confirmed: true });
      for (let turn = 1; turn <= this.o.maxTurns; turn++) {
        if (this.o.signal?.aborted) throw new AbortedError();
        // Steps count model calls: a check of done's result between turns is one too.
        this.step++;
        yield this.ev({ type: 'status', turn, maxTurns: this.o.maxTurns });
        const t0 = this.o.now();
        const response = yield* this.chat();
        yield this.usageEvent(response.usage, this.o.now() - t0, 'agent');
        const parsed = this.mode === 'native' ? nativeTurn(response) : textTurn(response);
        this.remember(response, parsed);
        if (parsed.thought) yield this.ev({ type: 'thought', text: parsed.thought });
        if (parsed.noAction !== undefined) {
          if ((yield* this.noAction(parsed)) === 'end') return;
          continue;
        }
        this.noActionStreak = 0;
        for (const call of parsed.calls.slice(0, MAX_CALLS_PER_TURN)) {
          if (this.o.signal?.aborted) throw new AbortedError();
          if ((yield* this.handle(call)) === 'end') return;
        }
        if (parsed.calls.length > MAX_CALLS_PER_TURN)
          yield this.observe(
            null,
            `Only the first ${MAX_CALLS_PER_TURN} of the ${parsed.calls.length} calls of that turn were run: make at most ${MAX_CALLS_PER_TURN} calls in one turn.`,
            false,
          );
      }
      yield* this.outOfTurns();
    } catch (e) {
      if (e instanceof AbortedError || this.o.signal?.aborted) yield this.fail('aborted', 'Stopped.');
      else if (e instanceof LlmError) yield this.fail(e.code, e.message);
      else yield this.fail('internal', e instanceof Error ? e.message : String(e));
    }
  }

  /** One agent-turn model call, its text deltas yielded while it runs. */
  private chat(): AsyncGenerator<AgentEvent, ChatResponse> {
    const request = { messages: [...this.messages], ...this.request, temperature: 0 };
    return streamTurn(this.o.model, request, (text) => this.ev({ type: 'thought_delta', text }), this.o.signal);
  }

  usageEvent(usage: Usage | null, ms: number, phase: 'agent' | 'explain'): AgentEvent {
    this.total = addUsage(this.total, usage);
    return this.ev({ type: 'usage', usage, total: { ...this.total }, ms, phase });
  }

  /** The assistant turn as the conversation keeps it; the observations it answered are shortened. */
  private remember(response: ChatResponse, turn: AgentTurn) {
    if (this.o.compactObservations) {
      const reply = [response.text, ...response.toolCalls.map((c) => c.arguments)].join('\n');
      for (const p of this.unread) {
        const m = this.messages[p.index];
        if (m.role === 'tool' || m.role === 'user') m.content = p.prefix + compactObservation(p.tool, p.text, reply);
      }
    }
    this.unread = [];
    if (this.mode === 'native') {
      // Only the calls that are run stay in the conversation: each needs its answer.
      const toolCalls = response.toolCalls.slice(0, MAX_CALLS_PER_TURN);
      this.messages.push({
        role: 'assistant',
        content: response.text,
        ...(toolCalls.length ? { toolCalls } : {}),
      });
    } else {
      this.messages.push({ role: 'assistant', content: textReplyForHistory(response.text) || turn.thought });
    }
  }

  /** Sends an observation back (tool message or `Observation:` turn) and reports it. */
  observe(call: TurnCall | null, text: string, ok: boolean, ms = 0): AgentEvent {
    const prefix = this.mode === 'text' ? 'Observation: ' : '';
    this.unread.push({ index: this.messages.length, tool: call?.name ?? '', text, prefix });
    if (this.mode === 'native' && call?.id)
      this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: text });
    else this.messages.push({ role: 'user', content: prefix + text });
    return this.ev({
      type: 'observation',
      tool: call?.name ?? '',
      // The person sees the values (marks removed); the model reads them through the privacy gate,
      // and where that withheld some, the event says what the model read.
      text: unmark(text),
      ...withModelView(text, this.policy),
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

  private async *handle(written: TurnCall): AsyncGenerator<AgentEvent, Step> {
    // `SearchValue`, `functions.search_value`: the offered tool the model meant.
    const call = { ...written, name: resolveToolName(written.name, this.setup.offered) };
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
    if (call.name === 'submit_plan' && this.state.confirmed) {
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
    if (!this.state.planned && call.name !== 'submit_plan') {
      yield this.observe(call, PLAN_FIRST + note, false);
      return 'continue';
    }
    if (call.name === 'submit_plan') return yield* planStep(this, call, note);
    if (call.name === 'done') return yield* doneStep(this, call, note);
    if (call.name === 'ask_user') return yield* askStep(this, call, note);
    if (call.name === 'execute_sql') return yield* executeStep(this, call, note);
    this.repairs.changedApproach();
    const outcome = await this.runTool(call.name, call.args);
    const signal = outcome.ok ? ambiguitySignal(call.name, call.args, outcome.output, this.o.question) : null;
    if (signal) this.state.signals.push(signal);
    yield this.observe(call, outcome.observation + note, outcome.ok, outcome.ms);
    return 'continue';
  }

  private readonly codesIn: (sql: string) => Promise<CodeAssumption[]>;

  codeAssumptions(sql: string): Promise<CodeAssumption[]> {
    return this.codesIn(sql);
  }

  /** The closing events once done's SQL ran; a step check shows rows instead of explaining. */
  async *finish(result: OkSqlOutcome, options: FinishOptions = {}): AsyncGenerator<AgentEvent> {
    this.step++;
    yield* explainFinish(this, result, options);
  }

  async *checkAnswer(result: OkSqlOutcome): AsyncGenerator<AgentEvent, AnswerCheck> {
    this.step++;
    return yield* checkAnswer(this, result);
  }

  /**
   * The turn limit: the last SQL that returned rows is offered as an unverified answer (run once
   * more so what is shown is what it returns); without one the run ends in an error.
   */
  private async *outOfTurns(): AsyncGenerator<AgentEvent> {
    const limit = `No answer within ${this.o.maxTurns} turns.`;
    const sql = this.state.lastRowsSql;
    const result = sql ? readSqlOutcome(await this.runTool('execute_sql', { sql })) : null;
    if (!result?.ok) {
      yield this.fail('turn_limit', limit);
      return;
    }
    yield this.ev({ type: 'sql', sql: result.sql, ok: true, summary: result.summary });
    yield* this.finish(result, { unverified: true, note: codeAssumptionNote(await this.codeAssumptions(result.sql)) });
  }

  /** One retrieval tool call with the time limit; failures and time-outs are outcomes. Stop throws. */
  async runTool(name: string, args: unknown): Promise<ToolCallOutcome> {
    const t0 = this.o.now();
    try {
      return await withTimeLimit((s) => this.o.tools.call(name, args, s), this.o.toolTimeoutMs, this.o.signal);
    } catch (e) {
      if (e instanceof AbortedError) throw e;
      const ms = this.o.now() - t0;
      const message =
        e instanceof TimeLimitError
          ? `${name} did not finish within ${limitText(this.o.toolTimeoutMs)} and was stopped. Try a narrower call or simpler SQL.`
          : `${name} failed: ${errorData(toDowserError(e))}`;
      return { ok: false, tool: name, error: 'tool_failed', observation: message, ms };
    }
  }
}
