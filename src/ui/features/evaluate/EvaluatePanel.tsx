import { useEffect, useState } from 'react';
import type { EvalMode } from '../../../core/eval/run-for-eval';
import type { Dataset } from '../../../core/eval/score-answer';
import { evaluateFile, stopEvaluation } from '../../actions/evaluate';
import { useApp } from '../../store/app-store';
import { useAsk } from '../../store/ask-store';
import { useEvaluate } from '../../store/evaluate-store';
import { EvalMisses } from './EvalMisses';
import { EvalScores } from './EvalScores';
import { DEFAULT_ANSWER_MODE } from '../../../core/agent/answer-mode';
import { evaluationRecords, evaluationReport, modeName } from '../../lib/evaluation-export';
import { baseName, downloadText } from '../../lib/download';
import { useServices } from '../../services/context';

const JSON_EXAMPLE = `[
  { "question": "How many customers are in Canada?",
    "sql": "SELECT count(*) FROM customers WHERE country = 'Canada'" },
  { "question": "…", "sql": "…", "hints": "optional extra knowledge" }
]`;
const CSV_EXAMPLE = `question,sql,hints
How many customers are in Canada?,"SELECT count(*) FROM customers WHERE country = 'Canada'",`;

/** Run a question file (question + reference SQL) against this database with the configured model. */
export function EvaluatePanel({ dbId }: { dbId: string }) {
  const evaluation = useEvaluate((s) => s.evaluations[dbId]);
  const model = useAsk((s) => s.model);
  const timeLimit = useApp((s) => s.settings.queryTimeoutMs);
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<EvalMode>(DEFAULT_ANSWER_MODE);
  const [rule, setRule] = useState<Dataset>('spider');
  const running = evaluation?.status === 'running';
  const done = evaluation?.rows.length ?? 0;
  const dbName = useApp((s) => s.databases.find((d) => d.id === dbId)?.name ?? 'database');
  const services = useServices();
  // The last evaluation of this file comes back after a reload (lib/saved-evaluations.ts).
  useEffect(() => {
    if (useEvaluate.getState().evaluations[dbId]) return;
    let live = true;
    void services.savedEvaluations.load(dbName).then((saved) => {
      if (live && saved && !useEvaluate.getState().evaluations[dbId])
        useEvaluate.getState().set(dbId, { ...saved, current: null, stop: () => undefined });
    });
    return () => {
      live = false;
    };
  }, [dbId, dbName, services]);
  const download = (kind: 'md' | 'jsonl') => {
    if (!evaluation) return;
    const name = `${baseName(dbName)}-evaluation`;
    if (kind === 'md') downloadText(`${name}.md`, evaluationReport(evaluation, dbName), 'text/markdown');
    else downloadText(`${name}.jsonl`, evaluationRecords(evaluation), 'application/x-ndjson');
  };

  return (
    <div className="ask-panel evaluate-panel" data-testid="evaluate">
      <p className="muted small">
        Check a model on your own data: give a file of questions with the SQL that answers each. Every question is
        answered by{' '}
        {model.provider === 'scripted' ? 'a model (choose one in Settings)' : `${model.provider} (${model.model})`} on
        this database; its SQL and yours run read-only (time limit {timeLimit / 1000} s, from Settings) and are compared
        by their results, as the Spider and BIRD benchmarks compare them.
      </p>
      <form
        className="ask-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (file) void evaluateFile(dbId, file, { mode, rule });
        }}
      >
        <label className="small">
          Question file (JSON or CSV){' '}
          <input
            type="file"
            accept=".json,.csv,application/json,text/csv"
            aria-label="Question file"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </label>
        <label className="small">
          Answer with{' '}
          <select aria-label="Answer with" value={mode} onChange={(e) => setMode(e.target.value as EvalMode)}>
            <option value="auto">Auto (one grounded request, tools when needed)</option>
            <option value="agent">the agent (tools)</option>
            <option value="direct">Direct (one prompt)</option>
          </select>
        </label>
        <label className="small">
          Compare as{' '}
          <select aria-label="Compare as" value={rule} onChange={(e) => setRule(e.target.value as Dataset)}>
            <option value="spider">Spider (same rows and counts; order only with ORDER BY)</option>
            <option value="bird">BIRD (same set of rows)</option>
          </select>
        </label>
        {running ? (
          <button type="button" className="secondary" onClick={() => stopEvaluation(dbId)}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!file}>
            Evaluate
          </button>
        )}
      </form>
      <details className="small">
        <summary>File format</summary>
        <p>JSON: a list of objects with "question" and "sql" (benchmark files work as they are):</p>
        <pre className="final-sql">{JSON_EXAMPLE}</pre>
        <p>CSV: a header row with question and sql columns (hints optional):</p>
        <pre className="final-sql">{CSV_EXAMPLE}</pre>
      </details>
      {evaluation && (
        <section className="run" aria-label="Evaluation">
          <p className="muted small" data-testid="eval-status" data-status={evaluation.status}>
            {evaluation.fileName} · {evaluation.model} · {modeName(evaluation.mode)} · {done} of{' '}
            {evaluation.total || '?'} questions
            {running && evaluation.reading ? ' · reading the question file…' : ''}
            {running && evaluation.current ? ` · answering ${JSON.stringify(evaluation.current)}` : ''}
            {evaluation.status === 'stopped' ? ' · stopped' : ''}
            {evaluation.savedAt ? ` · kept from ${new Date(evaluation.savedAt).toLocaleString()}` : ''}
          </p>
          {!running && done > 0 && (
            <span className="row gap">
              <button type="button" className="small secondary" onClick={() => download('md')}>
                Report (.md)
              </button>
              <button type="button" className="small secondary" onClick={() => download('jsonl')}>
                Records (.jsonl)
              </button>
            </span>
          )}
          {running && <progress max={evaluation.total || 1} value={done} aria-label="Evaluation progress" />}
          {evaluation.error && (
            <p className="error run-error" role="alert" data-testid="eval-error">
              {evaluation.error}
            </p>
          )}
          {done > 0 && <EvalScores evaluation={evaluation} />}
          {done > 0 && <EvalMisses rows={evaluation.rows} />}
        </section>
      )}
    </div>
  );
}
