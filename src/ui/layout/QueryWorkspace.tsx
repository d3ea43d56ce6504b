import { lazy, Suspense } from 'react';
import { cancelQuery, runQuery } from '../actions/run-query';
import { useApp } from '../store/app-store';
import { useSchema } from '../queries/hooks';
import { ResultsPanel } from '../features/results/ResultsPanel';
import { AskPanel } from '../features/ask/AskPanel';
import { ToolsPanel } from '../features/tools/ToolsPanel';
import { EvaluatePanel } from '../features/evaluate/EvaluatePanel';
import { currentSqlToRun } from '../features/editor/editor-handle';
import { PanelBoundary } from '../components/PanelBoundary';
import { AskRows } from './AskRows';
import { SqlTasks } from '../features/sql-tasks/SqlTasks';

// Monaco is megabytes: the editor component (and with it Monaco) loads after the page is up.
const SqlEditor = lazy(() => import('../features/editor/SqlEditor').then((m) => ({ default: m.SqlEditor })));

export function QueryWorkspace({ dbId }: { dbId: string }) {
  const sql = useApp((s) => s.sqlByDb[dbId] ?? '');
  const setSql = useApp((s) => s.setSql);
  const running = useApp((s) => s.run.status === 'running');
  const timeLimit = useApp((s) => s.settings.queryTimeoutMs);
  const enterAccepts = useApp((s) => s.settings.enterAcceptsSuggestion);
  const updateSettings = useApp((s) => s.updateSettings);
  const schema = useSchema(dbId);

  const run = (text: string) => {
    if (text.trim()) void runQuery(text);
  };
  const view = useApp((s) => s.view);

  if (view === 'tools')
    return (
      <>
        <ViewTabs />
        <PanelBoundary name="tools">
          <ToolsPanel dbId={dbId} />
        </PanelBoundary>
      </>
    );
  if (view === 'evaluate')
    return (
      <>
        <ViewTabs />
        <EvaluatePanel dbId={dbId} />
      </>
    );
  if (view === 'ask')
    return (
      <>
        <ViewTabs />
        <PanelBoundary name="ask">
          <AskPanel dbId={dbId} rows={<AskRows dbId={dbId} />} />
        </PanelBoundary>
      </>
    );
  return (
    <div className="query-workspace">
      <ViewTabs />
      <div className="toolbar">
        <button
          type="button"
          onClick={() => run(currentSqlToRun(sql))}
          disabled={running}
          title="Run the selection, or the statement under the cursor (Ctrl/Cmd+Enter)"
        >
          Run ▶
        </button>
        <button type="button" className="secondary" onClick={() => void cancelQuery()} disabled={!running}>
          Cancel
        </button>
        <span className="muted small">
          Ctrl/Cmd+Enter runs the statement under the cursor · read-only · time limit {timeLimit / 1000} s
        </span>
      </div>
      <div className="editor-pane">
        <Suspense fallback={<div className="sql-editor muted pad">Loading the editor…</div>}>
          <SqlEditor
            key={dbId}
            value={sql}
            onChange={(v) => setSql(dbId, v)}
            onRun={run}
            schema={schema.data}
            enterAccepts={enterAccepts}
            onEnterAcceptsChange={(v) => updateSettings({ enterAcceptsSuggestion: v })}
          />
        </Suspense>
      </div>
      <PanelBoundary name="SQL tasks">
        <SqlTasks
          dbId={dbId}
          currentSql={() => currentSqlToRun(sql)}
          onUseSql={(text) => {
            // Used means run: the rows below then belong to the SQL in the editor.
            setSql(dbId, text);
            void runQuery(text, { dbId });
          }}
        />
      </PanelBoundary>
      <PanelBoundary name="results">
        <ResultsPanel dbId={dbId} />
      </PanelBoundary>
    </div>
  );
}

function ViewTabs() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  return (
    <>
      {/* The outline a screen reader lists: the page (h1), this view (h2), its cards (h3). */}
      <h2 className="visually-hidden">{VIEW_NAMES[view]}</h2>
      <div className="view-tabs" role="tablist" aria-label="Workspace">
        {TABS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={view === id}
            className={view === id ? 'small' : 'small secondary'}
            onClick={() => setView(id)}
          >
            {label}
          </button>
        ))}
      </div>
    </>
  );
}

/** The tabs, in order, with their labels. */
const TABS = [
  ['ask', 'Ask'],
  ['sql', 'SQL'],
  ['tools', 'Tools'],
  ['evaluate', 'Evaluate'],
] as const;

const VIEW_NAMES = {
  ask: 'Ask a question',
  sql: 'SQL editor',
  tools: 'Retrieval tools',
  evaluate: 'Evaluate',
} as const;
