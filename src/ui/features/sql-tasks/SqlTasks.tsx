import { useState } from 'react';
import { explainEditorSql, fixEditorSql, lastQuestion, optimizeEditorSql } from '../../actions/sql-tasks';
import { useAsk } from '../../store/ask-store';
import { useTasks } from '../../store/task-store';
import { shown } from '../../lib/format';
import { ExplainCard, FixCard, FixProgress, OptimizeCard } from './TaskCards';

const TITLES = { explain: 'Explain', fix: 'Fix', optimize: 'Optimize' } as const;

/**
 * Explain, Fix and Optimize for the statement under the cursor (or the selection), with the
 * model from Settings; the result card shows below the editor.
 */
export function SqlTasks({
  dbId,
  currentSql,
  onUseSql,
}: {
  dbId: string;
  currentSql: () => string;
  onUseSql: (sql: string) => void;
}) {
  const task = useTasks((s) => s.tasks[dbId]);
  const setTask = useTasks((s) => s.setTask);
  const scripted = useAsk((s) => s.model.provider === 'scripted');
  const [fixForm, setFixForm] = useState<{ question: string; note: string } | null>(null);
  const running = task?.status === 'running';
  const disabled = running || scripted;
  const withSql = (go: (sql: string) => void) => () => {
    const sql = currentSql().trim();
    if (sql) go(sql);
  };
  return (
    <section className="sql-tasks" aria-label="SQL tasks">
      <div className="sql-tasks-bar">
        <button
          type="button"
          className="small secondary"
          disabled={disabled}
          onClick={withSql((sql) => void explainEditorSql(dbId, sql, lastQuestion(dbId, sql) || undefined))}
          title="What the statement returns, from which tables, with which filters and groupings"
        >
          Explain
        </button>
        <button
          type="button"
          className="small secondary"
          disabled={disabled}
          aria-expanded={!!fixForm}
          // The last question only when the SQL is its answer's: another statement's question misleads.
          onClick={() => setFixForm(fixForm ? null : { question: lastQuestion(dbId, currentSql().trim()), note: '' })}
          title="Repair a statement that fails, returns no rows, or that you say is wrong"
        >
          Fix…
        </button>
        <button
          type="button"
          className="small secondary"
          disabled={disabled}
          onClick={withSql((sql) => void optimizeEditorSql(dbId, sql))}
          title="A faster query with the same result, checked by running both"
        >
          Optimize
        </button>
        <span className="muted small">
          {scripted
            ? 'Explain, Fix and Optimize need a model: choose one in Settings.'
            : 'with the model, on the statement under the cursor'}
        </span>
      </div>
      {fixForm && (
        <form
          className="fix-form"
          aria-label="Fix"
          onSubmit={(e) => {
            e.preventDefault();
            withSql((sql) => void fixEditorSql(dbId, sql, fixForm.question.trim(), fixForm.note.trim()))();
            setFixForm(null);
          }}
        >
          <input
            aria-label="What the SQL should answer"
            placeholder="What should it answer? (optional)"
            value={fixForm.question}
            onChange={(e) => setFixForm({ ...fixForm, question: e.target.value })}
          />
          <input
            aria-label="What is wrong"
            placeholder="What is wrong with it? (optional when it fails or returns no rows)"
            value={fixForm.note}
            onChange={(e) => setFixForm({ ...fixForm, note: e.target.value })}
          />
          <button type="submit" className="small" disabled={disabled}>
            Fix
          </button>
        </form>
      )}
      {task && (
        <div className="card task-card" data-testid="sql-task" data-kind={task.kind} data-status={task.status}>
          <h4>
            {TITLES[task.kind]}
            <button type="button" className="link small" onClick={() => setTask(dbId, undefined)} disabled={running}>
              close
            </button>
          </h4>
          {task.status === 'running' &&
            (task.kind === 'fix' ? (
              <FixProgress progress={task.progress} />
            ) : (
              <p className="muted small">
                {task.kind === 'explain'
                  ? 'Running the SQL and asking the model…'
                  : 'Asking the model, then running both queries, comparing and timing them…'}
              </p>
            ))}
          {task.status === 'failed' && (
            <p className="error small" role="alert">
              {shown(task.error ?? 'Failed.')}
            </p>
          )}
          {task.kind === 'explain' && task.report && <ExplainCard report={task.report} />}
          {task.kind === 'fix' && task.report && <FixCard report={task.report} onUse={onUseSql} />}
          {task.kind === 'optimize' && task.report && <OptimizeCard report={task.report} onUse={onUseSql} />}
        </div>
      )}
    </section>
  );
}
