// Evaluate: a person's question file (question + reference SQL pairs) run against the open
// database with the configured model, one question at a time, each scored by execution as the
// benchmarks score (core/eval/evaluate-question.ts). The page's engine runs both queries, within
// the time limit of Settings; results land in the evaluate store as each question finishes.

import { baseRecord, evaluateQuestion, referenceProblem } from '../../core/eval/evaluate-question';
import { hardnessOfSql } from '../../core/eval/hardness';
import { RateGate } from '../../core/eval/rate-gate';
import type { EvalMode } from '../../core/eval/run-for-eval';
import type { Dataset, TimedQuery } from '../../core/eval/score-answer';
import { describeError } from '../../core/errors';
import type { QueryResult } from '../../core/types';
import { fullSchema } from '../queries/schema-reading';
import { getServices } from '../services/current';
import { useAsk } from '../store/ask-store';
import { announce } from '../store/announce-store';
import { useApp } from '../store/app-store';
import { answerLimitsOf, streamLimitsOf } from '../lib/app-settings';
import { evaluationAnnouncement } from '../lib/task-announcements';
import { QUESTION_FILE_LIMIT, sizeRefusal } from '../lib/file-limits';
import { useEvaluate, type ResultPreview } from '../store/evaluate-store';
import { privacyLevelFor, recordOutgoing } from './privacy';
import { groundingOf, linkQuestion, runTool } from './tools';

/** Rows read per query when comparing: enough for answers people check by hand. */
const MAX_RESULT_ROWS = 10_000;
const SHOWN_ROWS = 5;

const preview = (r: QueryResult | null): ResultPreview | null =>
  r && { columns: r.columns, rows: r.rows.slice(0, SHOWN_ROWS), total: r.rows.length };

/** An evaluation that ended is said to a screen reader and kept for this file's next visit. */
function endedEvaluation(dbId: string): void {
  const evaluation = useEvaluate.getState().evaluations[dbId];
  if (!evaluation) return;
  announce(evaluationAnnouncement(evaluation));
  const name = useApp.getState().databases.find((d) => d.id === dbId)?.name;
  if (name && evaluation.rows.length) void getServices().savedEvaluations.save(name, evaluation);
}

export async function evaluateFile(dbId: string, file: File, options: { mode: EvalMode; rule: Dataset }) {
  const ended = () => endedEvaluation(dbId);
  const store = useEvaluate.getState();
  const settings = useAsk.getState().model;
  const controller = new AbortController();
  store.set(dbId, {
    fileName: file.name,
    status: 'running',
    mode: options.mode,
    rule: options.rule,
    model: settings.provider === 'scripted' ? 'scripted demo' : `${settings.provider} (${settings.model})`,
    total: 0,
    rows: [],
    current: null,
    error: null,
    stop: () => controller.abort(),
  });
  const fail = (error: string) => {
    useEvaluate.getState().patch(dbId, { status: 'failed', error, current: null });
    ended();
  };
  try {
    if (settings.provider === 'scripted')
      return fail(
        'Evaluate needs a language model: choose one in Settings (the scripted demo only answers its own question).',
      );
    // Refused by its size before a byte is read; an accepted file is parsed in a worker.
    const refusal = sizeRefusal(file, QUESTION_FILE_LIMIT);
    if (refusal) return fail(`"${file.name}" was not read: ${refusal}.`);
    // The level the person chose for this server holds for Evaluate as for Ask (issue 35).
    const privacy = await privacyLevelFor(settings);
    if (!privacy) return fail('Evaluate was not started: choose what the model may see of the data first.');
    const services = getServices();
    useEvaluate.getState().patch(dbId, { reading: true });
    const pairs = await services.parseFiles
      .questionFile(file)
      .finally(() => useEvaluate.getState().patch(dbId, { reading: false }));
    useEvaluate.getState().patch(dbId, { total: pairs.length });
    const schema = await fullSchema(services, dbId);
    const gate = new RateGate();
    const limits = useApp.getState().settings;
    const model = gate.wrap(
      await services.createChatModel(settings, undefined, recordOutgoing, streamLimitsOf(limits)),
    );
    const agentMode = settings.toolMode === 'auto' ? undefined : settings.toolMode;
    const query: TimedQuery = (sql) => services.engine.query(dbId, sql, { maxRows: MAX_RESULT_ROWS });
    for (const [index, pair] of pairs.entries()) {
      if (controller.signal.aborted) break;
      useEvaluate.getState().patch(dbId, { current: pair.question });
      const q = {
        id: pair.id,
        index,
        dbId,
        question: pair.question,
        goldSql: pair.sql,
        difficulty: hardnessOfSql(pair.sql),
      };
      const problem = options.rule === 'spider' ? await referenceProblem({ q, query }) : null;
      if (problem) {
        const record = { ...baseRecord(q, schema), reason: problem, finishedAt: new Date().toISOString() };
        useEvaluate.getState().push(dbId, { record, gold: null, pred: null });
        continue;
      }
      const evaluated = await evaluateQuestion({
        q,
        dataset: options.rule,
        mode: options.mode,
        hints: pair.hints || undefined,
        model,
        tools: { call: (name, args) => runTool(dbId, name, args), grounding: () => groundingOf(dbId) },
        schema,
        links: await linkQuestion(dbId, pair.question).catch(() => []),
        query,
        signal: controller.signal,
        agentMode,
        answerLimits: answerLimitsOf(limits),
        privacy,
      });
      if (!evaluated) break;
      useEvaluate
        .getState()
        .push(dbId, { record: evaluated.record, gold: preview(evaluated.gold), pred: preview(evaluated.pred) });
      if (evaluated.fatal) return fail(evaluated.fatal);
    }
    useEvaluate.getState().patch(dbId, { status: controller.signal.aborted ? 'stopped' : 'done', current: null });
    ended();
  } catch (e) {
    fail(describeError(e));
  }
}

export function stopEvaluation(dbId: string): void {
  useEvaluate.getState().evaluations[dbId]?.stop();
}
