import { useEffect } from 'react';
import { Notices } from './components/Notices';
import { PanelBoundary } from './components/PanelBoundary';
import { DatabaseBar } from './layout/DatabaseBar';
import { DropOverlay } from './features/open/DropOverlay';
import { ImportDialog } from './features/open/ImportDialog';
import { LinkSettingsPrompt } from './features/settings/LinkSettingsPrompt';
import { Explorer } from './features/explorer/Explorer';
import { QueryWorkspace } from './layout/QueryWorkspace';
import { Announcer } from './components/Announcer';
import { Sidebar } from './layout/Sidebar';
import { focusQuestion } from './lib/focus-question';
import { openDemo, resumeAfterReload } from './actions/open-database';
import { connectServedAtStart, connectServeLink } from './actions/open-served';
import { useServices } from './services/context';
import type { RestartReason } from './services/types';
import { useApp } from './store/app-store';

let demoRequested = false;

const RESTART_NOTICE: Record<RestartReason, string> = {
  timeout: 'The query hit the time limit; the database worker was restarted and your databases reopened.',
  cancelled: 'Query cancelled; the database worker was restarted and your databases reopened.',
  memory:
    'A large result left the database worker holding much memory; it was restarted to free it and your databases reopened.',
  crashed: 'The database worker stopped unexpectedly; it was restarted and your databases reopened.',
};

export function App() {
  const activeId = useApp((s) => s.activeId);
  const hasDatabases = useApp((s) => s.databases.length > 0);
  const services = useServices();

  useEffect(() => {
    services.setRestartListener((reason) =>
      useApp.getState().notify(reason === 'crashed' ? 'warning' : 'info', RESTART_NOTICE[reason], null),
    );
    // First visit: the demo database, so there is something to act on at once.
    // After a reload the page asked for, the files that were open instead.
    if (!demoRequested && !hasDatabases) {
      demoRequested = true;
      // A dowser serve link (or this tab's served databases after a reload) instead of the demo.
      void Promise.all([resumeAfterReload(), connectServedAtStart()]).then(([resumed, served]) =>
        resumed || served ? undefined : openDemo(),
      );
    }
  }, [hasDatabases, services]);

  useEffect(() => {
    // A serve link opened in this tab when it was already open.
    const onHash = () => {
      if (!/[#&]serve=/.test(location.hash)) return;
      const hash = location.hash;
      history.replaceState(null, '', location.pathname + location.search);
      void connectServeLink(hash);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  return (
    <div className="app">
      <a
        href="#workspace"
        className="skip-link"
        onClick={(e) => {
          e.preventDefault();
          focusQuestion();
        }}
      >
        Skip to the question
      </a>
      <DatabaseBar />
      <Notices />
      <Announcer />
      <LinkSettingsPrompt />
      <div className="main">
        <Sidebar>
          <PanelBoundary name="schema explorer" key={activeId ?? ''}>
            {activeId ? <Explorer dbId={activeId} /> : <EmptyExplorer />}
          </PanelBoundary>
        </Sidebar>
        <main className="workspace" id="workspace" tabIndex={-1}>
          <PanelBoundary name="workspace" key={activeId ?? ''}>
            {activeId ? <QueryWorkspace dbId={activeId} /> : <Welcome />}
          </PanelBoundary>
        </main>
      </div>
      <DropOverlay />
      <ImportDialog />
    </div>
  );
}

/** The file being fetched or opened, if any: the first visit shows "Opening demo.sqlite…", never "No database open". */
function useOpening(): string | null {
  const fetching = useApp((s) => s.fetching);
  const opening = useApp((s) => s.databases.find((d) => d.status !== 'ready')?.name ?? null);
  const none = useApp((s) => s.databases.length === 0);
  // Before the first effect runs the demo is about to be requested.
  return fetching ?? opening ?? (!demoRequested && none ? 'demo.sqlite' : null);
}

function EmptyExplorer() {
  const opening = useOpening();
  if (opening)
    return (
      <p className="muted pad" role="status" data-testid="opening">
        Opening {opening}…
      </p>
    );
  return <p className="muted pad">No database open.</p>;
}

function Welcome() {
  const opening = useOpening();
  return (
    <div className="welcome">
      <h2>Ask your SQLite file</h2>
      {opening && (
        <p className="muted" role="status">
          Opening {opening}…
        </p>
      )}
      <p>
        Drop a <code>.sqlite</code>, <code>.sqlite3</code>, <code>.db</code> or <code>.db3</code> file anywhere on this
        page, or use <b>Open file</b>.
      </p>
      <p className="muted">The file stays in your browser: it is opened in a worker, on a private copy, read-only.</p>
      {!opening && (
        <button type="button" onClick={() => void openDemo()}>
          Open the demo database
        </button>
      )}
    </div>
  );
}
