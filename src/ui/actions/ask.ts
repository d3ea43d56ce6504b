// Asking a question: the agent loop runs on the page's main thread (it mostly waits on the model
// and on tool calls); tools run in the database worker; every event lands in the store as it comes.

import { DEFAULT_ANSWER_MODE, runAnswer, type AnswerMode } from '../../core/agent/answer-mode';
import { QUESTION_WAITS_FOR_INDEXES_MS } from '../../core/engine';
import { toDowserError } from '../../core/errors';
import { LlmError } from '../../core/llm/types';
import { queryKeys } from '../queries';
import { fullSchema } from '../queries/schema-reading';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import { answerLimitsOf, streamLimitsOf } from '../lib/app-settings';
import { useAsk } from '../store/ask-store';
import { groundingOf, linkQuestion, runTool } from './tools';
import { runQuery } from './run-query';
import { privacyLevelFor, recordOutgoing } from './privacy';
import { usePrivacy } from '../store/privacy-store';
import { similarExamples } from '../../core/examples/examples';
import type { Plan } from '../../core/agent/plan';
import { checkStep } from '../../core/agent/check-step';
import type { SqlValue } from '../../core/types';
import type { AgentEvent } from '../../core/agent/events';
import { priorTurnOf } from '../../core/agent/thread';
import type { AskRun } from '../store/ask-store';

const controllerOf = (dbId: string) => getServices().asks.for(dbId);

/** The person's answer to `ask_user` (an option or their own words). */
export function answerAgent(dbId: string, answer: string): void {
  controllerOf(dbId).answer(answer);
}

/** Continue after the plan (pause-after-plan setting), with the person's edits when given. */
export function continueAfterPlan(dbId: string, edited?: Plan): void {
  controllerOf(dbId).continueAfterPlan(edited);
}

/** The plan was edited while the agent was already working: stop it and start again from the edit. */
export function restartFromPlan(dbId: string, plan: Plan): void {
  const run = useAsk.getState().runs[dbId];
  if (!run) return;
  stopAsk(dbId);
  const final = run.events.find((e) => e.type === 'final');
  void ask(dbId, run.question, run.hints, {
    confirmedPlan: plan,
    previousSql: final && final.type === 'final' ? final.sql : undefined,
  });
}

function waitForPerson(dbId: string, signal: AbortSignal): Promise<string | null> {
  return controllerOf(dbId).waitForPerson(signal, () => useAsk.getState().patchRun(dbId, { waitingFor: undefined }));
}

let counter = 0;

export interface AskOptions {
  /** Regenerate from this plan (edited and confirmed by the person): the agent does not re-plan. */
  confirmedPlan?: Plan;
  /** The SQL being replaced, shown as a diff next to the new one. */
  previousSql?: string;
  /** Auto (the default), the agent, or Direct (core/agent/answer-mode.ts). */
  mode?: AnswerMode;
  /** Follow up on the current answer: the conversation goes on (else a new one starts). */
  followUp?: boolean;
  /** Answer again the turn at this place of the conversation (its plan was edited). */
  atTurn?: number;
}

/**
 * The conversation a question is asked in (issue 23): the turns before it, and the turns asked
 * after an earlier one that is now answered again (they built on the old answer).
 */
const sameQuestion = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function conversationFor(
  dbId: string,
  question: string,
  options: AskOptions,
): { thread: AskRun[]; later: AskRun[]; threadId?: string } {
  const s = useAsk.getState();
  const earlier = s.threads[dbId] ?? [];
  const current = s.runs[dbId];
  const all = [...earlier, ...(current ? [current] : [])];
  // A plan confirmed without a place regenerates the current turn, in its conversation, and so
  // does the current turn's own question asked again while following up (a retry, not a follow-up
  // on itself; a failed follow-up retried keeps the turns before it).
  const retried = options.followUp && current && !current.imported && sameQuestion(current.question, question);
  const again = options.confirmedPlan || retried;
  const at = options.atTurn ?? (again && current ? (current.turn ?? earlier.length) : undefined);
  if (at !== undefined)
    return {
      thread: all.slice(0, at),
      later: [...all.slice(at + 1), ...(s.laterTurns[dbId] ?? [])].map((r) => ({ ...r, stale: true })),
      // The turn answered again stays in its conversation (the history brings it back so after a reload).
      threadId: all[at]?.threadId ?? all[0]?.id,
    };
  const answered = current && !current.imported && current.status === 'done';
  // A follow-up keeps the turns set apart (they can still be asked again); a new question drops them.
  if (options.followUp && answered) return { thread: all, later: s.laterTurns[dbId] ?? [] };
  return { thread: [], later: [] };
}

export async function ask(dbId: string, question: string, hints: string, options: AskOptions = {}): Promise<void> {
  const app = useApp.getState();
  const db = app.databases.find((d) => d.id === dbId);
  // A plan the person confirmed is the agent's to carry out.
  const mode: AnswerMode = options.confirmedPlan ? 'agent' : (options.mode ?? DEFAULT_ANSWER_MODE);
  const settings = useAsk.getState().model;
  const control = controllerOf(dbId);
  const signal = control.start();
  const store = useAsk.getState();
  const { thread, later, threadId } = conversationFor(dbId, question, options);
  store.setThread(dbId, thread, later);
  const id = `run${++counter}-${Date.now().toString(36)}`;
  const history = thread.map((r) => priorTurnOf(r.question, r.events));
  store.setRun(dbId, {
    id,
    threadId: threadId ?? thread[0]?.threadId ?? thread[0]?.id ?? id,
    turn: thread.length,
    dbId,
    dbName: db?.name ?? '',
    question,
    hints,
    provider: settings.provider,
    model: settings.provider === 'scripted' ? 'scripted demo' : settings.model,
    status: 'running',
    events: [],
    streaming: '',
    startedAt: Date.now(),
    confirmedPlan: options.confirmedPlan,
    previousSql: options.previousSql,
    ...(mode !== 'agent' ? { mode } : {}),
  });
  const fail = (message: string, code = 'internal') => {
    useAsk.getState().pushEvent(dbId, { type: 'error', code: code as never, message, step: 0, at: Date.now() });
    useAsk.getState().patchRun(dbId, { status: 'failed', endedAt: Date.now() });
  };
  try {
    const schema = await fullSchema(getServices(), dbId);
    const links = await linkQuestion(dbId, question, { waitMs: QUESTION_WAITS_FOR_INDEXES_MS });
    // In-browser models download first: their progress shows where the streamed text will be.
    // A cloud server used for the first time waits for the person's privacy choice.
    const privacy = await privacyLevelFor(settings);
    if (!privacy) {
      fail('No privacy level was chosen, so nothing was sent.', 'aborted');
      return;
    }
    usePrivacy.getState().clearPrompts(dbId);
    const model = await getServices().createChatModel(
      settings,
      (text) => useAsk.getState().patchRun(dbId, { streaming: text }),
      recordOutgoing,
      streamLimitsOf(useApp.getState().settings),
    );
    const toolMode = settings.toolMode === 'auto' ? undefined : settings.toolMode;
    // The user's confirmed examples most like this question join the prompt as theirs.
    const userExamples = similarExamples(question, await getServices().examples.list(db?.name ?? ''), 2).map(
      (s) => s.example,
    );
    const pauseAfterPlan = useApp.getState().settings.pauseAfterPlan;
    let ended: 'done' | 'failed' = 'failed';
    const tools = {
      call: (name: string, args: unknown) => runTool(dbId, name, args),
      grounding: () => groundingOf(dbId),
    };
    for await (const event of runAnswer(mode, {
      question,
      hints: hints || undefined,
      model,
      privacy,
      schema,
      links,
      mode: toolMode,
      signal,
      answerLimits: answerLimitsOf(useApp.getState().settings),
      userExamples,
      ...(history.length ? { history } : {}),
      confirmedPlan: options.confirmedPlan,
      // The plan card's plan was written by the run it came from, maybe at a fuller level (issue 35).
      planFromAnotherRun: !!options.confirmedPlan,
      askUser: async (q) => {
        useAsk.getState().patchRun(dbId, { waitingFor: 'answer' });
        return (await waitForPerson(dbId, signal)) ?? q.options[0];
      },
      onPlan: pauseAfterPlan
        ? async () => {
            useAsk.getState().patchRun(dbId, { waitingFor: 'plan' });
            const answer = await waitForPerson(dbId, signal);
            const edited = control.takeEditedPlan();
            if (answer !== 'continue') return { action: 'stop' as const };
            return edited ? { action: 'continue' as const, plan: edited } : { action: 'continue' as const };
          }
        : undefined,
      tools,
    })) {
      if (event.type === 'thought_delta') {
        const run = useAsk.getState().runs[dbId];
        if (run) useAsk.getState().patchRun(dbId, { streaming: run.streaming + event.text });
        continue;
      }
      useAsk.getState().pushEvent(dbId, event);
      if (event.type === 'final') {
        ended = 'done';
        // Editor and grid agree on the answer: the editor gets its SQL and the grid its rows.
        useApp.getState().setSql(dbId, event.sql);
        void runQuery(event.sql, { dbId, origin: 'agent' });
      }
    }
    useAsk.getState().patchRun(dbId, { status: ended, endedAt: Date.now() });
  } catch (e) {
    if (e instanceof LlmError) fail(e.message, e.code);
    else fail(toDowserError(e).message);
  } finally {
    control.ended(signal);
    const finished = useAsk.getState().runs[dbId];
    if (finished) {
      const problem = await getServices().runHistory.save(finished);
      if (problem) useApp.getState().notify('warning', problem);
      void getServices().queryClient.invalidateQueries({ queryKey: queryKeys.history(finished.dbName) });
    }
  }
}

export function stopAsk(dbId: string): void {
  controllerOf(dbId).stop();
}

export type StepPreview =
  | { status: 'running' }
  | { status: 'done'; sql: string; columns: string[]; rows: SqlValue[][] }
  /** `events`: what the check itself did (its tool calls and their results), shown with the failure. */
  | { status: 'failed'; message: string; events: AgentEvent[] };

/** "Check this step": a small SQL answering one sub-question, for the person to look at. */
export async function checkPlanStep(dbId: string, plan: Plan, index: number, question: string): Promise<StepPreview> {
  try {
    const settings = useAsk.getState().model;
    const schema = await fullSchema(getServices(), dbId);
    const privacy = await privacyLevelFor(settings);
    if (!privacy) return { status: 'failed', message: 'No privacy level was chosen, so nothing was sent.', events: [] };
    const limits = useApp.getState().settings;
    const model = await getServices().createChatModel(settings, undefined, recordOutgoing, streamLimitsOf(limits));
    const mode = settings.toolMode === 'auto' ? undefined : settings.toolMode;
    const events: AgentEvent[] = [];
    let out: StepPreview = { status: 'failed', message: 'The check ended without rows.', events };
    for await (const e of checkStep({
      model,
      privacy,
      tools: { call: (name, args) => runTool(dbId, name, args) },
      schema,
      plan,
      index,
      question,
      // The plan card's plan comes from its run, which may have been at a fuller level (issue 35).
      planFromAnotherRun: true,
      mode,
      answerLimits: answerLimitsOf(limits),
    })) {
      if (e.type === 'step_preview') out = { status: 'done', sql: e.sql, columns: e.columns, rows: e.rows };
      else if (e.type === 'error') out = { status: 'failed', message: e.message, events };
      else if (e.type === 'thought' || e.type === 'action' || e.type === 'observation') events.push(e);
    }
    return out;
  } catch (e) {
    return { status: 'failed', message: e instanceof Error ? e.message : String(e), events: [] };
  }
}
