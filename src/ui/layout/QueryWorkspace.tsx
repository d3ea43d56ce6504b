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
  const view = useApp((s) => s.view);

  // The tabs stay where they are (the keyboard's focus with them); the panel below is the view's.
  return (
    <>
      <ViewTabs />
      <div
        className="view-panel"
        role="tabpanel"
        id={TAB_PANEL_ID}
        aria-labelledby={tabId(view)}
        data-testid="view-panel"
      >
        {view === 'tools' ? (
          <PanelBoundary name="tools">
            <ToolsPanel dbId={dbId} />
          </PanelBoundary>
        ) : view === 'evaluate' ? (
          <EvaluatePanel dbId={dbId} />
        ) : view === 'ask' ? (
          <PanelBoundary name="ask">
            <AskPanel dbId={dbId} rows={<AskRows dbId={dbId} />} />
          </PanelBoundary>
        ) : (
          <SqlView dbId={dbId} />
        )}
      </div>
    </>
  );
}

function SqlView({ dbId }: { dbId: string }) {
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
  return (
    <div className="query-workspace">
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
        {/* Its chunk may be gone after a deploy: the message stays in the editor's place. */}
        <PanelBoundary name="SQL editor">
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
        </PanelBoundary>
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

const TAB_PANEL_ID = 'view-panel';
const tabId = (view: string) => `view-tab-${view}`;

/** The WAI-ARIA tabs pattern: one Tab stop, arrow keys and Home/End move and choose. */
function ViewTabs() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const onKeyDown = (e: React.KeyboardEvent) => {
    const at = TABS.findIndex(([id]) => id === view);
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % TABS.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + TABS.length) % TABS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? TABS.length - 1
              : null;
    if (to === null) return;
    e.preventDefault();
    setView(TABS[to][0]);
    document.getElementById(tabId(TABS[to][0]))?.focus();
  };
  return (
    <>
      {/* The outline a screen reader lists: the page (h1), this view (h2), its cards (h3). */}
      <h2 className="visually-hidden">{VIEW_NAMES[view]}</h2>
      <div className="view-tabs" role="tablist" aria-label="Workspace" onKeyDown={onKeyDown}>
        {TABS.map(([id, label]) => (
          <button
            key={id}
            id={tabId(id)}
            type="button"
            role="tab"
            aria-selected={view === id}
            aria-controls={TAB_PANEL_ID}
            tabIndex={view === id ? 0 : -1}
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
