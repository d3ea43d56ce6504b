import { integrityOf } from '../../../core/db/file-check';
import { saveImportedDatabase } from '../../actions/save-database';
import { formatBytes, shownLines } from '../../lib/format';
import { useApp } from '../../store/app-store';
import type { OpenReport } from '../../../core/types';

/** How the engine holds the file: a private copy in memory, or the file read as needed (issue 26). */
export function readFromText(readFrom: 'memory' | 'file' | undefined): string {
  return readFrom === 'file' ? 'read-only, read from the file as needed' : 'read-only copy in memory';
}

/** "15.4" of the server's "15.4 (Debian 15.4-1)". */
const serverVersion = (server: NonNullable<OpenReport['server']>) => server.version.split(' ')[0];

/** A database reached through dowser serve (issue 36): where it is, and that it is read-only there too. */
export function servedText(report: OpenReport): string {
  const via = `through dowser serve (${report.served?.origin ?? ''})`;
  if (report.server)
    return `Connected to ${report.server.target} through dowser serve · PostgreSQL ${serverVersion(report.server)} · read-only transactions · schemas ${report.server.schemas.join(', ')}`;
  return `${report.name} (${formatBytes(report.sizeBytes)}, SQLite ${report.sqliteVersion}) ${via} · read-only`;
}

/** The tab's tooltip: what the database is on, and how long opening took. */
export function tabTitle(report: OpenReport, sizeBytes: number, readyMs: number | undefined): string {
  const took = readyMs != null ? ` · opened in ${readyMs} ms` : '';
  if (report.server) return `PostgreSQL ${serverVersion(report.server)} through dowser serve${took}`;
  if (report.served) return `${formatBytes(sizeBytes)} · SQLite ${report.sqliteVersion} through dowser serve${took}`;
  return `${formatBytes(sizeBytes)} · SQLite ${report.sqliteVersion}${took}`;
}

/** What opening the file found: size, SQLite version, integrity, and any problems (kept here after notices are dismissed). */
export function DatabaseInfo({ dbId }: { dbId: string }) {
  const db = useApp((s) => s.databases.find((d) => d.id === dbId));
  const report = db?.report;
  if (!db || !report) return null;
  const integrity = {
    pending: 'checking integrity…',
    skipped: 'integrity not checked (large file)',
    ok: 'integrity ok',
    failed: 'integrity problems',
  }[integrityOf(report.quickCheck)];
  return (
    <div className="db-info small" data-testid="db-info">
      {report.served ? (
        <div className="muted" data-testid="served-info">
          {servedText(report)}
        </div>
      ) : (
        <div className="muted" data-read-from={report.readFrom ?? 'memory'}>
          {formatBytes(report.sizeBytes)} · SQLite {report.sqliteVersion} · {integrity}
          {db.readyMs != null ? ` · opened in ${db.readyMs} ms` : ''} · {readFromText(report.readFrom)}
        </div>
      )}
      {report.imported && (
        <button type="button" className="small" onClick={() => void saveImportedDatabase(dbId)}>
          Save as a SQLite file
        </button>
      )}
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
