import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { closeDatabase, openFiles, openRecent } from '../actions/open-database';
import { ServeLinkForm } from '../features/open/ServeLinkForm';
import { tabTitle } from '../features/explorer/DatabaseInfo';
import { formatBytes, shown } from '../lib/format';
import { recentQuery } from '../queries';
import { useServices } from '../services/context';
import { useApp } from '../store/app-store';
import { SettingsPanel } from '../features/settings/SettingsPanel';

/** Header: open databases (switch, close), open a file, recent files, settings. */
export function DatabaseBar() {
  const databases = useApp((s) => s.databases);
  const activeId = useApp((s) => s.activeId);
  const setActive = useApp((s) => s.setActive);
  const input = useRef<HTMLInputElement>(null);
  const [panel, setPanel] = useState<'recent' | 'settings' | null>(null);
  const services = useServices();
  const recent = useQuery({ ...recentQuery(services), enabled: panel === 'recent' });
  const opener = useRef<HTMLButtonElement | null>(null);

  // Escape closes an open panel and gives the focus back to the button that opened it.
  useEffect(() => {
    if (!panel) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      setPanel(null);
      opener.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [panel]);
  const toggle = (which: 'recent' | 'settings') => (e: React.MouseEvent<HTMLButtonElement>) => {
    opener.current = e.currentTarget;
    setPanel(panel === which ? null : which);
  };

  return (
    <header className="topbar">
      <h1 className="brand">Dowser</h1>
      <nav className="db-tabs" aria-label="Open databases">
        {databases.map((d) => (
          <div
            key={d.id}
            className={`db-tab ${d.id === activeId ? 'active' : ''}`}
            data-status={d.status}
            data-ready-ms={d.readyMs}
            data-open-ms={d.report?.openMs}
          >
            <button
              type="button"
              className="db-tab-name"
              disabled={d.status !== 'ready'}
              onClick={() => setActive(d.id)}
              title={d.report ? tabTitle(d.report, d.sizeBytes, d.readyMs) : undefined}
              aria-current={d.id === activeId}
            >
              {shown(d.name)}
              {d.status === 'opening' &&
                (d.progress > 0 ? (
                  <progress max={1} value={d.progress} aria-label={`Reading ${d.name}`} />
                ) : (
                  <span className="muted"> opening…</span>
                ))}
              {d.report?.issues.some((i) => i.level === 'error') && (
                <span className="badge badge-error" title="This file has problems">
                  !
                </span>
              )}
            </button>
            {d.status === 'ready' && (
              <button
                type="button"
                className="link"
                aria-label={`Close ${d.name}`}
                onClick={() => void closeDatabase(d.id)}
              >
                ×
              </button>
            )}
          </div>
        ))}
      </nav>
      <div className="topbar-actions">
        <button type="button" onClick={() => input.current?.click()}>
          Open file…
        </button>
        <input
          ref={input}
          type="file"
          hidden
          data-testid="file-input"
          multiple
          accept=".sqlite,.sqlite3,.db,.db3,.s3db,.sl3,.csv,.tsv,.json,.jsonl,application/vnd.sqlite3,application/x-sqlite3,text/csv,*/*"
          onChange={(e) => {
            if (e.target.files) void openFiles(e.target.files);
            e.target.value = '';
          }}
        />
        <button type="button" className="secondary" aria-expanded={panel === 'recent'} onClick={toggle('recent')}>
          Recent
        </button>
        <button type="button" className="secondary" aria-expanded={panel === 'settings'} onClick={toggle('settings')}>
          Settings
        </button>
      </div>
      {panel === 'recent' && (
        <div className="popover" role="dialog" aria-label="Recent files">
          <h2>Recently opened</h2>
          {recent.data?.length ? (
            <ul className="plain">
              {recent.data.map((f) => (
                <li key={f.name}>
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      setPanel(null);
                      // The entry goes with the panel: the focus goes back to Recent, not to the page.
                      opener.current?.focus();
                      // Without stored bytes the picker opens now, while the click still counts as the person's.
                      if (!f.stored) input.current?.click();
                      else void openRecent(f.name, () => input.current?.click());
                    }}
                  >
                    {shown(f.name)}
                  </button>
                  <span className="muted">
                    {' '}
                    {formatBytes(f.sizeBytes)} · {new Date(f.openedAt).toLocaleString()}{' '}
                    {f.stored ? '· stored here' : '· name only: pick the file again'}{' '}
                  </span>
                  <button
                    type="button"
                    className="link"
                    aria-label={`Forget ${f.name}`}
                    onClick={() => void services.recentFiles.forget(f.name).then(() => recent.refetch())}
                  >
                    forget
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Nothing yet.</p>
          )}
          <ServeLinkForm onDone={() => setPanel(null)} />
        </div>
      )}
      {panel === 'settings' && (
        <div className="popover" role="dialog" aria-label="Settings">
          <SettingsPanel />
        </div>
      )}
    </header>
  );
}
