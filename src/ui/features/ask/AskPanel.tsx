import { useEffect, useRef, useState, type ReactNode } from 'react';
import { DEMO_NOTE, DEMO_QUESTION } from '../../../core/agent/demo-script';
import { ask, stopAsk } from '../../actions/ask';
import { useApp } from '../../store/app-store';
import { useAsk } from '../../store/ask-store';
import { RunHistoryList } from './RunHistory';
import { ImportRunButton } from './RunExport';
import { ExamplesList } from './ExamplesList';
import { RunView } from './RunView';
import { PrivacyChoice } from './PrivacyChoice';
import { PromptLog } from './PromptLog';
import { LinkChips } from './LinkChips';
import { PanelBoundary } from '../../components/PanelBoundary';
import { AskModeSwitch, useAskMode } from './AskModeSwitch';
import { QUESTION_ID } from '../../lib/focus-question';
import { NoModelGuide } from './NoModelGuide';
import { RunAnnouncer } from './RunAnnouncer';
import { useAnswerIntoView } from './use-answer-into-view';
import { RunJumps } from './RunJumps';
import { LaterTurns, useRestoredThread } from './ThreadParts';
import { shown } from '../../lib/format';
import type { AskRun } from '../../store/ask-store';

const NONE: AskRun[] = [];

/** Question box, the run as it happens, and the answer. */
export function AskPanel({ dbId, rows }: { dbId: string; /** Table rows asked for from here. */ rows?: ReactNode }) {
  const db = useApp((s) => s.databases.find((d) => d.id === dbId));
  const run = useAsk((s) => s.runs[dbId]);
  const thread = useAsk((s) => s.threads[dbId]) ?? NONE;
  const later = useAsk((s) => s.laterTurns[dbId]) ?? NONE;
  // After an answer the next question follows up on it, unless the person starts a new one: an
  // unticked box starts one new conversation, and the answer to it is followed up on again.
  const [followUp, setFollowUp] = useState(true);
  const runId = run?.id;
  useEffect(() => setFollowUp(true), [runId]);
  const canFollowUp = !!run && run.status === 'done' && !run.imported;
  useRestoredThread(dbId, db?.name);
  const model = useAsk((s) => s.model);
  const isDemo = db?.name === 'demo.sqlite';
  const onlyDemo = useApp((s) => s.databases.length === 1) && isDemo;
  const scripted = model.provider === 'scripted';
  // Each database keeps its own question: a switch never carries one over to another file.
  const draft = useApp((s) => s.questionByDb[dbId]);
  const storeQuestion = useApp((s) => s.setQuestion);
  const question = draft ?? run?.question ?? (isDemo && scripted ? DEMO_QUESTION : '');
  const setQuestion = (q: string) => storeQuestion(dbId, q);
  const [hints, setHints] = useState(run?.hints ?? '');
  const runBox = useRef<HTMLDivElement>(null);
  // The guide is there while no model is chosen: once one is (by its Test connection or in
  // Settings, the one place that configures it) it goes.
  const noModel = scripted && !isDemo;
  useAnswerIntoView(run, runBox);
  const [showHints, setShowHints] = useState(false);
  const running = run?.status === 'running';
  const mode = useAskMode();

  useEffect(() => {
    if (!question && isDemo && scripted) storeQuestion(dbId, DEMO_QUESTION);
  }, [isDemo, scripted, question, dbId, storeQuestion]);

  const canAsk = question.trim() !== '' && !running && !(scripted && !isDemo);
  const submit = () => {
    if (canAsk)
      void ask(dbId, question.trim(), hints.trim(), {
        mode: scripted ? 'agent' : mode,
        // Also past a failed turn: its question asked again is answered again with the turns before it.
        followUp: followUp && !!run && !run.imported,
      });
  };

  return (
    <div className="ask-panel">
      {scripted && isDemo && (
        <p className="demo-note" data-testid="demo-note">
          {DEMO_NOTE}
        </p>
      )}
      {onlyDemo && (
        <p className="muted small" data-testid="own-file-hint">
          Your own data: drop a <b>.sqlite</b>, <b>CSV</b> or <b>JSON</b> file anywhere on this page, or use{' '}
          <b>Open file…</b> at the top. It is read here, in this browser, read-only; it is never uploaded.
        </p>
      )}
      <form
        className="ask-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <input
          id={QUESTION_ID}
          className="question"
          aria-label="Question"
          placeholder="Ask a question about this database…"
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          readOnly={scripted && isDemo}
        />
        {/* Distinct keys: reusing one <button> would turn Stop into a submit button during its own
            click and start a new run at once. */}
        {running ? (
          <button
            key="stop"
            type="button"
            className="secondary"
            onClick={(e) => {
              e.preventDefault();
              stopAsk(dbId);
            }}
          >
            Stop
          </button>
        ) : (
          <button
            key="ask"
            type="submit"
            disabled={!canAsk}
            aria-describedby={scripted && !isDemo ? 'no-model-title' : undefined}
          >
            Ask
          </button>
        )}
        {/* The question and its button keep the first line to themselves; the options wrap below. */}
        <span className="ask-form-break" aria-hidden="true" />
        <button type="button" className="link small" aria-expanded={showHints} onClick={() => setShowHints(!showHints)}>
          add hints (facts the model should know)
        </button>
        <ImportRunButton dbId={dbId} />
        <AskModeSwitch dbId={dbId} scripted={scripted} />
        {canFollowUp && (
          <label
            className="small follow-up"
            title={`The model gets the conversation so far: ${thread.length + 1} earlier question${thread.length ? 's' : ''}`}
          >
            <input type="checkbox" checked={followUp} onChange={(e) => setFollowUp(e.target.checked)} /> Follow up on
            the answer to “{shown(run.question)}”
          </label>
        )}
        {showHints && (
          <textarea
            className="hints"
            aria-label="Hints"
            placeholder="Optional facts the agent should know, e.g. “revenue means price × quantity”"
            value={hints}
            onChange={(e) => setHints(e.target.value)}
          />
        )}
      </form>
      {noModel && <NoModelGuide dbId={dbId} />}
      {!scripted || isDemo ? <LinkChips dbId={dbId} question={question} hints={hints} disabled={running} /> : null}
      <PrivacyChoice />
      <PromptLog dbId={dbId} />
      {rows}
      {db && (
        <PanelBoundary name="history">
          <RunHistoryList dbId={dbId} dbName={db.name} />
        </PanelBoundary>
      )}
      {db && (
        <PanelBoundary name="examples">
          <ExamplesList dbId={dbId} dbName={db.name} />
        </PanelBoundary>
      )}
      <RunAnnouncer run={run} />
      {thread.length > 0 && (
        <ol className="thread" aria-label="Earlier in this conversation">
          {thread.map((t) => (
            <li key={t.id} className="turn" data-testid="turn">
              <PanelBoundary name="run">
                <RunView run={t} earlier />
              </PanelBoundary>
            </li>
          ))}
        </ol>
      )}
      {run && (
        <div ref={runBox} aria-busy={running} className="run-box">
          {run.events.some((e) => e.type === 'final') && (
            <RunJumps box={runBox} hasPlan={run.events.some((e) => e.type === 'plan')} />
          )}
          <PanelBoundary name="run" key={run.id}>
            <RunView run={run} />
          </PanelBoundary>
        </div>
      )}
      {later.length > 0 && <LaterTurns dbId={dbId} turns={later} disabled={running} />}
      {!run && (
        <p className="muted pad">
          The agent first writes a plan of sub-questions, then searches columns and values, finds join paths, runs SQL,
          and explains its answer. Every step appears here as it happens.
        </p>
      )}
    </div>
  );
}
