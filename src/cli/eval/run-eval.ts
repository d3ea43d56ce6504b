// `dowser eval`: every selected question answered by the product (agent or Direct mode, any
// provider), scored by execution as the official evaluators score, costed, and written as it
// finishes (eval-out.ts), so a stopped run continues where it stopped. Questions run in slots
// (--concurrency), each slot on its own database worker, grouped by database so each slot
// builds a database's tools once per group.

import { PRIVACY_LABELS } from '../../core/privacy/disclose';
import { resolve } from 'node:path';
import type { QuestionRecord } from '../../core/eval/eval-record';
import { evalMarkdown } from '../../core/eval/eval-markdown';
import { summarize, type EvalDetails, type EvalSummary } from '../../core/eval/eval-summary';
import { baseRecord, evaluateQuestion, referenceProblem } from '../../core/eval/evaluate-question';
import { runPool } from '../../core/eval/pool';
import { RateGate } from '../../core/eval/rate-gate';
import { displayUrl } from '../../core/llm/errors';
import type { Schema } from '../../core/types';
import type { SpawnedWorker } from '../../worker/db-client';
import { EXIT_ERROR, EXIT_OK, type CliIo } from '../command';
import { scrubbingIo } from '../commands/ask';
import { DatabaseSlot, MissingDatabase, type EvalSlot } from './eval-databases';
import { ServerDatabaseSlot } from './server-databases';
import { modelSource, type ModelSource } from './eval-models';
import { cliAnswerLimits } from '../model-flags';
import type { EvalOptions } from './eval-options';
import { EvalOut } from './eval-out';
import { duration, EvalProgress } from './eval-progress';
import { loadEvalQuestions, type EvalItem } from './eval-questions';
import { isConversational } from './datasets';
import type { AgentEvent } from '../../core/agent/events';
import { priorTurnOf, type PriorTurn } from '../../core/agent/thread';
import type { Dataset } from '../../core/eval/score-answer';

export const EXIT_INTERRUPTED = 130;

export interface EvalRunDeps {
  /** Stop (Ctrl+C): questions in flight are dropped, finished ones kept, the report written. */
  signal?: AbortSignal;
  /** Redraw the progress bar in place (stderr is a terminal). */
  live?: boolean;
  spawn?: () => SpawnedWorker;
  /** Hears each recorded question (tests). */
  onRecord?: (r: QuestionRecord) => void;
  /** Limit of one tool call of the model (default 30 s, the agent's). */
  toolLimitMs?: number;
}

interface RunContext {
  o: EvalOptions;
  models: ModelSource;
  out: EvalOut;
  signal: AbortSignal;
  onFatal(message: string): void;
}

/** Questions grouped by database, groups cut so every slot gets work; a conversation is one chunk, in order. */
export function chunksByDatabase(items: EvalItem[], workers: number): EvalItem[][] {
  if (items.some((q) => q.interaction !== undefined)) {
    const byInteraction = new Map<number, EvalItem[]>();
    for (const q of items) byInteraction.set(q.interaction!, [...(byInteraction.get(q.interaction!) ?? []), q]);
    // Interactions on the same database next to each other, so a slot keeps its database open.
    return [...byInteraction.values()].sort((a, b) => (a[0].dbId < b[0].dbId ? -1 : a[0].dbId > b[0].dbId ? 1 : 0));
  }
  const groups = new Map<string, EvalItem[]>();
  for (const q of items) groups.set(q.dbId, [...(groups.get(q.dbId) ?? []), q]);
  const chunks: EvalItem[][] = [];
  for (const group of groups.values()) {
    const size = Math.max(Math.ceil(group.length / workers), 25);
    for (let i = 0; i < group.length; i += size) chunks.push(group.slice(i, i + size));
  }
  return chunks;
}

/** The scoring rule: SParC and CoSQL turns are scored as Spider questions. */
const scoringOf = (o: EvalOptions): Dataset => (o.dataset === 'bird' ? 'bird' : 'spider');

async function evaluate(
  item: EvalItem,
  slot: EvalSlot,
  ctx: RunContext,
  history: PriorTurn[] = [],
): Promise<{ record: QuestionRecord; events: AgentEvent[] } | null> {
  const { o } = ctx;
  const skipped = (reason: string, schema?: Schema) => ({
    record: { ...baseRecord(item, schema), reason, finishedAt: new Date().toISOString() },
    events: [],
  });
  let db;
  try {
    db = await slot.use(item.dbId);
  } catch (e) {
    if (e instanceof MissingDatabase) return skipped(e.message);
    throw e;
  }
  // A conversation's turn is answered even when its reference fails: the next turns read it.
  if (o.dataset === 'spider') {
    const problem = await referenceProblem({
      q: item,
      query: db.query,
      goldQuery: db.goldQuery,
      timeLimitMs: o.timeLimitMs,
    });
    if (problem) return skipped(problem, db.schema);
  }
  const model = ctx.models.forQuestion(item, db.schema);
  if (typeof model === 'string') return skipped(model, db.schema);
  const hints = o.hints && item.evidence ? item.evidence : undefined;
  const evaluated = await evaluateQuestion({
    q: item,
    dataset: scoringOf(o),
    mode: o.mode,
    hints,
    model,
    tools: db.tools,
    schema: db.schema,
    links: await db.link(item.question).catch(() => []),
    query: db.query,
    goldQuery: db.goldQuery,
    timeLimitMs: o.timeLimitMs,
    signal: ctx.signal,
    maxTurns: o.maxTurns,
    compactObservations: o.compactObservations,
    agentMode: o.tools,
    history,
    answerLimits: cliAnswerLimits(o),
    privacy: o.privacy,
  });
  if (!evaluated) return null;
  if (evaluated.fatal) ctx.onFatal(evaluated.fatal);
  const transcript = ctx.out.transcript(item.id, {
    id: item.id,
    dbId: item.dbId,
    question: item.question,
    hints: hints ?? null,
    mode: o.mode,
    provider: ctx.models.label.provider,
    model: ctx.models.label.model,
    apiKeyEnv: ctx.models.keyEnv,
    goldSql: item.goldSql,
    ...(history.length ? { history: history.map((h) => h.question) } : {}),
    events: evaluated.events.filter((e) => e.type !== 'thought_delta'),
  });
  return { record: { ...evaluated.record, transcript }, events: evaluated.events };
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');

/** Wrong answers that kept other rows tied at the reference's LIMIT (core/eval/ties.ts), said apart. */
function tieLine(s: EvalSummary, d: EvalDetails): string[] {
  const ties = d.misses.tie;
  if (!ties || s.ex === null || s.n === 0) return [];
  const counted = (100 * (Math.round((s.ex * s.n) / 100) + ties)) / s.n;
  return [
    `${ties} wrong answer${ties === 1 ? '' : 's'} kept other rows tied at the reference's LIMIT (EX counting ${ties === 1 ? 'it' : 'them'}: ${counted.toFixed(2)}%)`,
  ];
}

function resultLines(s: EvalSummary, d: EvalDetails, out: string): string {
  const soft = s.softF1 !== undefined ? `, soft F1 ${s.softF1 === null ? '–' : s.softF1.toFixed(2)}%` : '';
  const t = s.tokensPerQuestion;
  return [
    `EX ${s.ex === null ? '–' : s.ex.toFixed(2) + '%'}${soft} over ${s.n} scored questions (skipped ${s.skipped}, failed ${s.failed}${d.pending ? `, not yet run ${d.pending}` : ''})`,
    ...tieLine(s, d),
    ...(s.byTurn
      ? [
          `question match ${s.questionMatch === null ? '–' : s.questionMatch?.toFixed(2) + '%'} over ${s.turns} turns, interaction match ${s.interactionMatch === null ? '–' : s.interactionMatch?.toFixed(2) + '%'} over ${s.interactions} interactions; by turn: ${Object.entries(
            s.byTurn,
          )
            .map(([k, b]) => `${k}: ${b.ex === null ? '–' : b.ex.toFixed(1) + '%'} (${b.n})`)
            .join(', ')}`,
        ]
      : []),
    `per question (mean): ${n(t.input.mean)} input tokens (${n(t.cached.mean)} cached; first request ${n(d.firstRequestTokens.mean)}), ` +
      `${n(t.output.mean)} output; ${s.requestsPerQuestion.mean} model requests; ${d.toolCallsPerQuestion.mean} tool calls; ${s.secondsPerQuestion.mean} s`,
    `written to ${out}: summary.json, summary.md, details.json, results.jsonl, transcripts/`,
  ].join('\n');
}

export async function runEval(o: EvalOptions, rawIo: CliIo, deps: EvalRunDeps = {}): Promise<number> {
  const { source, items } = loadEvalQuestions(o);
  let progress: EvalProgress | null = null;
  const gate = new RateGate({
    onPause: (ms, reason) => progress?.note(`rate limited: every request waits ${duration(ms / 1000)} (${reason})`),
  });
  const models = modelSource(o, rawIo, gate);
  const io = scrubbingIo(rawIo, models.secret);
  const out = new EvalOut(o.out, models.secret);
  out.open({
    dataset: o.dataset,
    questionsFile: resolve(source.questionsFile),
    provider: models.label.provider,
    model: models.label.model,
    mode: o.mode,
    hints: o.hints,
    tools: o.tools ?? 'auto',
    ...(isConversational(o.dataset) ? { context: o.context } : {}),
  });
  const previous = out.results();
  const finished = (r: QuestionRecord | undefined) =>
    !!r && (r.status === 'correct' || r.status === 'wrong' || (r.status === 'failed' && !o.retryFailed));
  const done = (q: EvalItem) =>
    finished(previous.get(q.id)) || (!!previous.get(q.id) && previous.get(q.id)!.status === 'skipped');
  // A conversation runs again whole unless every turn finished: later turns read the earlier answers.
  const unfinished = new Set(items.filter((q) => q.interaction !== undefined && !done(q)).map((q) => q.interaction));
  const todo = items.filter((q) =>
    q.interaction !== undefined ? unfinished.has(q.interaction) : !finished(previous.get(q.id)),
  );

  const controller = new AbortController();
  const stop = () => controller.abort();
  if (deps.signal?.aborted) stop();
  deps.signal?.addEventListener('abort', stop, { once: true });
  let fatal: string | null = null;
  const ctx: RunContext = {
    o,
    models,
    out,
    signal: controller.signal,
    onFatal(message) {
      fatal ??= message;
      stop();
    },
  };
  progress = new EvalProgress(todo.length, { write: (t) => io.stderr.write(t), live: !!deps.live });
  progress.start(
    `dowser eval: ${items.length} questions selected, ${items.length - todo.length} already done in ${o.out}; ` +
      `running ${todo.length} (${models.label.provider}, ${o.mode} mode, privacy ${PRIVACY_LABELS[o.privacy]}` +
      `${o.privacyChosen ? '' : ' by default, --privacy to change'}, concurrency ${o.concurrency})`,
  );
  const fresh = new Map<string, QuestionRecord>();
  const slots = Array.from(
    { length: o.concurrency },
    (): EvalSlot =>
      o.dbUrl
        ? new ServerDatabaseSlot(source, {
            urlTemplate: o.dbUrl,
            maxResultRows: o.maxResultRows,
            toolLimitMs: deps.toolLimitMs,
          })
        : new DatabaseSlot(source, {
            maxResultRows: o.maxResultRows,
            toolLimitMs: deps.toolLimitMs,
            spawn: deps.spawn,
          }),
  );
  try {
    await runPool(
      chunksByDatabase(todo, o.concurrency),
      o.concurrency,
      async (chunk, slot) => {
        const history: PriorTurn[] = [];
        for (const item of chunk) {
          if (controller.signal.aborted) return;
          // --context none asks every turn alone: what the thread buys, measured against it.
          const thread = item.interaction !== undefined && o.context === 'thread' ? [...history] : [];
          const done = await evaluate(item, slots[slot], ctx, thread);
          if (!done) continue;
          const r = done.record;
          if (item.interaction !== undefined) history.push(priorTurnOf(item.question, done.events));
          out.append(r);
          fresh.set(r.id, r);
          progress?.tick(r);
          deps.onRecord?.(r);
        }
      },
      controller.signal,
    );
  } finally {
    deps.signal?.removeEventListener('abort', stop);
    for (const s of slots) s.dispose();
    progress.finish();
    const records = items.flatMap((q) => fresh.get(q.id) ?? previous.get(q.id) ?? []);
    const { summary, details } = summarize(records, { softF1: o.dataset === 'bird', selected: items.length });
    const header = {
      title: `dowser eval: ${o.dataset}`,
      facts: [
        `questions: ${source.questionsFile} (${items.length} selected)`,
        `provider: ${models.label.provider} (${models.label.model})${o.baseUrl ? ` at ${displayUrl(o.baseUrl)}` : ''}, ${o.mode} mode, hints ${o.hints ? 'on' : 'off'}`,
        `scoring: ${o.dataset === 'bird' ? 'BIRD execution accuracy and soft F1' : o.dataset === 'spider' ? 'Spider test-suite execution match' : `${o.dataset}: Spider's execution match per turn (question match) and per interaction (all its turns)`}, time limit ${(o.timeLimitMs ?? (scoringOf(o) === 'spider' ? 60_000 : 30_000)) / 1000} s per query`,
      ],
    };
    out.report(summary, details, evalMarkdown(header, summary, details));
    io.stdout.write(resultLines(summary, details, o.out) + '\n');
    if (fatal) io.stderr.write(`error: stopped: ${fatal}\n`);
    else if (controller.signal.aborted)
      io.stderr.write(`Interrupted: ${details.pending} questions not yet run; run the same command to continue.\n`);
  }
  return fatal ? EXIT_ERROR : controller.signal.aborted ? EXIT_INTERRUPTED : EXIT_OK;
}
