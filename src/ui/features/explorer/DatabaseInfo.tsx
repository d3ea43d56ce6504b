import { formatBytes, shownLines } from '../../lib/format';
import { useApp } from '../../store/app-store';

/** What opening the file found: size, SQLite version, integrity, and any problems (kept here after notices are dismissed). */
export function DatabaseInfo({ dbId }: { dbId: string }) {
  const db = useApp((s) => s.databases.find((d) => d.id === dbId));
  const report = db?.report;
  if (!db || !report) return null;
  const integrity =
    report.quickCheck.length === 0
      ? 'checking integrity…'
      : report.quickCheck.length === 1 && report.quickCheck[0] === 'ok'
        ? 'integrity ok'
        : 'integrity problems';
  return (
    <div className="db-info small" data-testid="db-info">
      <div className="muted">
        {formatBytes(report.sizeBytes)} · SQLite {report.sqliteVersion} · {integrity}
        {db.readyMs != null ? ` · opened in ${db.readyMs} ms` : ''} · read-only copy
      </div>
      {report.issues.length > 0 && (
        <ul className="plain db-issues">
          {report.issues.map((i) => (
            <li key={i.code} className={i.level === 'error' ? 'error' : i.level === 'warning' ? 'warn' : 'muted'}>
              {shownLines(i.message)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
