import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { chooseChart } from '../../../core/charts/choose-chart';
import type { AgentEvent } from '../../../core/agent/events';
import { boundedJson } from '../../../core/format/bounded-json';
import { runQuery } from '../../actions/run-query';
import { formatCount, shown, shownLines } from '../../lib/format';
import { useApp } from '../../store/app-store';
import type { AskRun } from '../../store/ask-store';
import { RunExportButtons } from './RunExport';
import { CorrectButton } from './CorrectButton';
import { Waiting } from './Waiting';
import { PlanEditor } from './PlanEditor';
import { announce } from '../../store/announce-store';
import { stepCheckAnnouncement } from '../../lib/task-announcements';
import { SqlDiff } from '../../components/SqlDiff';
import { ask, checkPlanStep, continueAfterPlan, restartFromPlan, type StepPreview } from '../../actions/ask';
import { useSchema } from '../../queries/hooks';
import type { Plan } from '../../../core/agent/plan';
import { MiniRows } from '../../components/MiniRows';

type Ev<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

/** One run: plan card, a card per step, the answer. All model and database text is rendered as text. */
export function RunView({
  run,
  earlier = false,
}: {
  run: AskRun;
  /** An earlier turn of the conversation. */ earlier?: boolean;
}) {
  const plan = [...run.events].reverse().find((e): e is Ev<'plan'> => e.type === 'plan');
  const final = run.events.find((e): e is Ev<'final'> => e.type === 'final');
  const error = run.events.find((e): e is Ev<'error'> => e.type === 'error');
  const usage = [...run.events].reverse().find((e): e is Ev<'usage'> => e.type === 'usage');
  const routes = run.events.filter((e): e is Ev<'route'> => e.type === 'route');
  // Why each model request was made (Auto and Direct): the answer, a repair, a check and its evidence.
  const whys = run.events.flatMap((e) => (e.type === 'usage' && e.why ? [e.why] : []));
  const steps = groupSteps(run.events);
  // Landmarks are named apart from the current turn's, so each earlier one can be found by name.
  const earlierNo = earlier ? ` ${(run.turn ?? 0) + 1}` : '';
  return (
    <div className="run" data-testid={earlier ? 'turn-run' : 'run'} data-status={run.status}>
      <div className="run-meta muted small">
        {run.provider === 'scripted' ? 'scripted demo (no model)' : `${run.provider} · ${run.model}`}
        {run.mode === 'direct' && ' · Direct (one call, no tools)'}
        {run.mode === 'auto' && ' · Auto'}
        {!!run.turn && ` · follow-up ${run.turn}`}
        {run.stale && ' · built on an earlier answer'}
        {usage &&
          ` · ${formatCount(usage.total.inputTokens)} in${usage.total.cachedInputTokens ? ` (${formatCount(usage.total.cachedInputTokens)} cached)` : ''} / ${formatCount(usage.total.outputTokens)} out tokens${usage.total.estimated ? ' (estimated)' : ''}`}
        {run.endedAt && ` · ${((run.endedAt - run.startedAt) / 1000).toFixed(1)} s`}
        {run.imported && ' · opened from a file (read-only)'}
        {run.status !== 'running' && <RunExportButtons run={run} />}
      </div>
      {(routes.length > 0 || whys.length > 0) && (
        <ul className="routes small" data-testid="routes" aria-label="How it was answered">
          {routes.map((r, i) => (
            <li key={i} data-path={r.path}>
              <strong>
                {r.path === 'grounded' ? 'Answered from the schema and its values' : 'The agent with its tools'}
              </strong>
              {': '}
              {shown(r.reason)}
            </li>
          ))}
          {whys.length > 0 && (
            <li data-testid="requests">
              <strong>
                {whys.length} model request{whys.length === 1 ? '' : 's'}
              </strong>
              {': '}
              {whys.map((w, i) => `${i + 1}. ${w}`).join('; ')}
            </li>
          )}
        </ul>
      )}
      {plan && <PlanCard plan={plan} run={run} label={earlier ? `Earlier plan${earlierNo}` : 'Plan'} />}
      <ol className="steps">
        {steps.map((s) => (
          <StepCard key={s.key} step={s} />
        ))}
      </ol>
      {run.status === 'running' && run.waitingFor && <Waiting run={run} />}
      {run.status === 'running' && !run.waitingFor && (
        <div className="streaming" data-testid="streaming">
          {shownLines(run.streaming) || 'Thinking…'}
        </div>
      )}
      {final && (
        <FinalCard
          final={final}
          dbId={run.dbId}
          label={earlier ? `Earlier answer${earlierNo}` : 'Answer'}
          // Earlier turns keep to their rows: one chart on the page is the current answer's.
          chart={!earlier}
        />
      )}
      {run.previousSql && final && <SqlDiff before={run.previousSql} after={final.sql} />}
      {final && !run.imported && <CorrectButton run={run} />}
      {error?.code === 'aborted' ? (
        // The person's own Stop is no failure: said plainly, not in red.
        <p className="muted run-stopped" role="status" data-testid="run-stopped">
          {error.message === 'Stopped.'
            ? 'Stopped, as you asked: nothing more was sent or run. Ask again to start over.'
            : shownLines(error.message)}
        </p>
      ) : (
        error && (
          <p className="error run-error" role="alert" data-testid="run-error" data-code={error.code}>
            {shownLines(error.message)}
          </p>
        )
      )}
    </div>
  );
}

function PlanCard({ plan, run, label }: { plan: Ev<'plan'>; run: AskRun; label: string }) {
  const [draft, setDraft] = useState<Plan | null>(null);
  // Focus goes into the editor when it opens and back to "edit" when it closes, never to the page.
  const editButton = useRef<HTMLButtonElement>(null);
  const editorBox = useRef<HTMLDivElement>(null);
  const focusAfter = useRef<'editor' | 'edit' | null>(null);
  const editing = draft !== null;
  useEffect(() => {
    if (focusAfter.current === 'editor') editorBox.current?.querySelector<HTMLElement>('input, button')?.focus();
    if (focusAfter.current === 'edit') editButton.current?.focus();
    focusAfter.current = null;
  }, [editing]);
  const openEditor = () => {
    focusAfter.current = 'editor';
    setDraft(structuredClone(plan.plan));
  };
  const closeEditor = () => {
    focusAfter.current = 'edit';
    setDraft(null);
  };
  const [previews, setPreviews] = useState<Record<number, StepPreview>>({});
  const schema = useSchema(run.dbId).data;
  const final = run.events.find((e): e is Ev<'final'> => e.type === 'final');
  const finished = run.status !== 'running';
  // Editing is open after a run, while it waits after the plan, and during a run (then it restarts).
  const editable = !run.imported;
  const check = async (index: number, p: Plan) => {
    setPreviews((s) => ({ ...s, [index]: { status: 'running' } }));
    const result = await checkPlanStep(run.dbId, p, index, run.question);
    setPreviews((s) => ({ ...s, [index]: result }));
    const words = stepCheckAnnouncement(index + 1, result);
    if (words) announce(words);
  };
  const regenerate = () => {
    if (!draft) return;
    if (run.waitingFor === 'plan') continueAfterPlan(run.dbId, draft);
    else if (!finished) restartFromPlan(run.dbId, draft);
    // An earlier turn of a conversation is answered again in its place; the turns after it are kept apart.
    else
      void ask(run.dbId, run.question, run.hints, {
        confirmedPlan: draft,
        previousSql: final?.sql,
        ...(run.turn !== undefined ? { atTurn: run.turn } : {}),
      });
    setDraft(null);
  };
  const regenerateLabel =
    run.waitingFor === 'plan'
      ? 'Continue with this plan'
      : finished
        ? 'Regenerate from plan'
        : 'Restart from this plan';
  return (
    <section className="card plan-card" data-testid="plan-card" aria-label={label}>
      <h3>
        Plan {plan.confirmed && <span className="muted small">(confirmed by you)</span>}
        {editable && !draft && (
          <button type="button" className="link small" ref={editButton} onClick={openEditor}>
            edit
          </button>
        )}
      </h3>
      {draft ? (
        <div
          ref={editorBox}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.stopPropagation();
            closeEditor();
          }}
        >
          <PlanEditor plan={draft} schema={schema} onChange={setDraft} />
          <span className="row gap">
            <button
              type="button"
              className="small"
              onClick={regenerate}
              disabled={draft.sub_questions.length === 0 || draft.sub_questions.some((q) => !q.text.trim())}
            >
              {regenerateLabel}
            </button>
            <button type="button" className="small secondary" onClick={closeEditor}>
              Cancel
            </button>
          </span>
        </div>
      ) : (
        <ol>
          {plan.plan.sub_questions.map((q, i) => (
            <li key={i}>
              <span>{shown(q.text)}</span>
              <span className="chips">
                {q.tables
                  .flatMap((t) => (t.columns.length ? t.columns.map((c) => `${t.table}.${c}`) : [t.table]))
                  .map((c) => (
                    <span key={c} className="chip">
                      {shown(c)}
                    </span>
                  ))}
              </span>
              {editable && finished && (
                <button type="button" className="link small" onClick={() => void check(i, plan.plan)}>
                  check this step
                </button>
              )}
              {previews[i] && <Preview preview={previews[i]} />}
            </li>
          ))}
        </ol>
      )}
      {plan.problems.length > 0 && <p className="warn small">{shown(plan.problems.map((p) => p.message).join(' '))}</p>}
    </section>
  );
}

function Preview({ preview }: { preview: StepPreview }) {
  if (preview.status === 'running') return <p className="muted small">Checking this step…</p>;
  if (preview.status === 'failed') return <FailedCheck preview={preview} />;
  return (
    <div className="step-preview" data-testid="step-preview">
      <code className="small">{shownLines(preview.sql)}</code>
      <MiniRows columns={preview.columns} rows={preview.rows.slice(0, 5)} />
    </div>
  );
}

/**
 * A check that ended without rows: what failed, in words, and the check's own steps (its tool
 * calls, with any SQL it ran and SQLite's answer), so nothing refers to events not on screen.
 */
function FailedCheck({ preview }: { preview: Extract<StepPreview, { status: 'failed' }> }) {
  const steps = groupSteps(preview.events);
  const ranSql = preview.events.some((e) => e.type === 'action' && e.tool === 'execute_sql');
  return (
    <div className="step-check-failed" data-testid="step-check-failed">
      <p className="error small">
        This check found no rows: {shown(preview.message)}{' '}
        {steps.length === 0
          ? 'The model made no tool call.'
          : ranSql
            ? 'Its SQL and what SQLite answered are below.'
            : 'It ran no SQL; its steps are below.'}
      </p>
      {steps.length > 0 && (
        <ol className="steps check-steps">
          {steps.map((s) => (
            <StepCard key={s.key} step={s} />
          ))}
        </ol>
      )}
    </div>
  );
}

interface Step {
  key: string;
  thought?: string;
  action?: Ev<'action'>;
  /** SQL a request without tools wrote (Auto and Direct): it ran without a tool call to show it. */
  sql?: Ev<'sql'>;
  observation?: Ev<'observation'>;
  usage?: Ev<'usage'>;
}

function groupSteps(events: AgentEvent[]): Step[] {
  const steps: Step[] = [];
  let pendingThought: string | undefined;
  // The model call's time and tokens go on the first card of that call.
  const usageByStep = new Map<number, Ev<'usage'>>();
  for (const e of events) if (e.type === 'usage' && e.phase === 'agent') usageByStep.set(e.step, e);
  const shown = new Set<number>();
  const withUsage = (s: Step, step: number): Step => {
    if (!shown.has(step) && usageByStep.has(step)) {
      shown.add(step);
      s.usage = usageByStep.get(step);
    }
    return s;
  };
  const withAction = new Set(events.filter((e) => e.type === 'action').map((e) => e.step));
  for (const e of events) {
    if (e.type === 'thought') pendingThought = e.text;
    else if (e.type === 'sql' && !withAction.has(e.step))
      steps.push(withUsage({ key: `${e.step}-${steps.length}`, sql: e }, e.step));
    else if (e.type === 'action') {
      steps.push(withUsage({ key: `${e.step}-${steps.length}`, thought: pendingThought, action: e }, e.step));
      pendingThought = undefined;
    } else if (e.type === 'observation') {
      const open = [...steps].reverse().find((s) => s.action && !s.observation && s.action.tool === e.tool);
      if (open) open.observation = e;
      else steps.push({ key: `${e.step}-${steps.length}`, observation: e });
    }
  }
  if (pendingThought) steps.push({ key: `t-${steps.length}`, thought: pendingThought });
  return steps;
}

function StepCard({ step }: { step: Step }) {
  const [open, setOpen] = useState(true);
  const a = step.action;
  return (
    <li className="card step-card" data-testid="step" data-tool={a?.tool}>
      {step.thought && <p className="thought">{shownLines(step.thought)}</p>}
      {a && (
        <button type="button" className="action link" aria-expanded={open} onClick={() => setOpen(!open)}>
          <code>{shown(a.tool)}</code> <span className="muted">{shown(argsText(a.args))}</span>
        </button>
      )}
      {step.sql && (
        <>
          <pre className="step-sql small">{shownLines(step.sql.sql)}</pre>
          <p className={`small ${step.sql.ok ? 'muted' : 'error'}`}>
            {step.sql.ok ? 'ran: ' : 'failed: '}
            {shown(step.sql.summary)}
          </p>
        </>
      )}
      {open && step.observation && !a && !step.sql && <p className="muted small told">Sent back to the model:</p>}
      {open && step.observation && (
        <pre className={`observation small ${step.observation.ok ? '' : 'observation-bad'}`}>
          {shownLines(step.observation.text)}
        </pre>
      )}
      {open && step.observation?.modelText !== undefined && (
        // The person sees the values; under a privacy level the model did not: say so, and what it read.
        <details className="small model-view" data-testid="model-view">
          <summary>Values withheld from the model by the privacy level: what it read</summary>
          <pre className="observation small">{shownLines(step.observation.modelText)}</pre>
        </details>
      )}
      <span className="muted small step-meta">
        {step.usage &&
          `model ${step.usage.ms} ms · ${step.usage.usage ? tokensText(step.usage.usage) : 'tokens not reported'}`}
        {step.usage && step.observation && a && ' · '}
        {step.observation && a && `tool ${step.observation.ms} ms`}
      </span>
    </li>
  );
}

function argsText(args: unknown): string {
  // Bounded: a model's (or a file's) arguments may nest deeper than JSON.stringify can go.
  const s = boundedJson(args, { maxChars: 400 });
  return s.length > 160 ? s.slice(0, 159) + '…' : s;
}

function FinalCard({ final, dbId, label, chart }: { final: Ev<'final'>; dbId: string; label: string; chart: boolean }) {
  const setView = useApp((s) => s.setView);
  const setSql = useApp((s) => s.setSql);
  const numberFormat = useApp((s) => s.settings.numberFormat);
  const dbName = useApp((s) => s.databases.find((d) => d.id === dbId)?.name);
  const open = () => {
    setSql(dbId, final.sql);
    setView('sql');
    void runQuery(final.sql, { dbId, origin: 'agent' });
  };
  return (
    <section className="card final-card" data-testid="final" aria-label={label}>
      <h3>
        Answer{' '}
        <span className={`verdict verdict-${final.verdict}`} data-testid="verdict">
          {final.verdict === 'match'
            ? '✓ matches the question'
            : final.verdict === 'mismatch'
              ? '✗ may not match the question'
              : final.verdict === 'unchecked'
                ? 'answered in one request: nothing in the result called for a check'
                : '? unsure'}
        </span>
      </h3>
      {final.unverified && (
        <p className="warn small" data-testid="unverified">
          Unverified: the agent ran out of turns before finishing. This is the last SQL that returned rows; check it
          before you rely on it.
        </p>
      )}
      {final.explanation && (
        <p className="explanation" data-testid="explanation">
          {shownLines(final.explanation)}
        </p>
      )}
      {final.note && <p className="muted small">{final.note}</p>}
      <pre className="final-sql" data-testid="final-sql">
        {shownLines(final.sql)}
      </pre>
      <button type="button" className="small" onClick={open}>
        Open in the SQL editor
      </button>
      <MiniRows columns={final.columns} rows={final.rows} cellChars={80} testId="final-rows" numbers={numberFormat} />
      <p className="muted small">
        {final.totalRows != null
          ? `${formatCount(final.totalRows)} row${final.totalRows === 1 ? '' : 's'}`
          : `${final.rows.length}+ rows`}
        {final.truncated ? ' (first rows shown)' : ''}
      </p>
      {chart && <AnswerChart final={final} dbName={dbName ?? 'answer'} />}
    </section>
  );
}

/** One model call's tokens, with the part the provider read from its prompt cache. */
function tokensText(u: NonNullable<Ev<'usage'>['usage']>): string {
  const cached = u.cachedInputTokens ? ` (${u.cachedInputTokens} cached)` : '';
  return `${u.inputTokens} in${cached} / ${u.outputTokens} out tokens${u.estimated ? ' (est.)' : ''}`;
}

// Loaded with the first answer that suits a chart (Plot comes with it, not with the page).
const ChartView = lazy(() => import('../../components/ChartView'));

/** The chart the answer's rows suit, beside them; none when nothing fits. */
function AnswerChart({ final, dbName }: { final: Ev<'final'>; dbName: string }) {
  const result = useMemo(
    () => ({
      columns: final.columns,
      columnTypes: [],
      rows: final.rows,
      truncated: final.truncated,
      offset: 0,
      elapsedMs: 0,
    }),
    [final],
  );
  const suits = useMemo(() => chooseChart(result.columns, result.rows).type !== 'none', [result]);
  if (!suits) return null;
  return (
    <Suspense fallback={null}>
      <ChartView result={result} dbName={dbName} compact />
      {final.truncated && <p className="muted small">The chart draws the rows shown; open the SQL for all of them.</p>}
    </Suspense>
  );
}
