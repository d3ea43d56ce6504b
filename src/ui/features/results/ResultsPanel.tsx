import { lazy, Suspense, useState } from 'react';
import { resultToCsv, resultToJson } from '../../../core/export/csv';
import { sqlFileText } from '../../../core/export/sql-file';
import { describeError } from '../../../core/errors';
import { fetchAllRows, fetchMore, runQuery, wholeValue } from '../../actions/run-query';
import { baseName, downloadText } from '../../lib/download';
import { formatBytes, formatCount, shown, shownLines } from '../../lib/format';
import { useApp, type RunState } from '../../store/app-store';
import { ResultsGrid, type OpenedCell } from './ResultsGrid';
import { ValueDialog } from './ValueDialog';

// Loaded with the first chart, so the page's first load does not carry the chart library.
const ChartView = lazy(() => import('../../components/ChartView'));

export function ResultsPanel({ dbId }: { dbId: string }) {
  const run = useApp((s) => s.run);
  const db = useApp((s) => s.databases.find((d) => d.id === dbId));
  const notify = useApp((s) => s.notify);
  const protectFormulas = useApp((s) => s.settings.protectCsvFormulas);
  const updateSettings = useApp((s) => s.updateSettings);
  const [exporting, setExporting] = useState(false);
  const [opened, setOpened] = useState<OpenedCell | null>(null);
  const [showChart, setShowChart] = useState(false);
  const mine = run.dbId === dbId;

  const exportRows = async (kind: 'csv' | 'json') => {
    if (!run.sql || !run.result) return;
    setExporting(true);
    try {
      // The grid may show only the first page, with long values cut: export re-runs the statement
      // for all rows, with the (much larger) bounds of an export.
      const full = run.result.truncated || run.result.cut ? await fetchAllRows(dbId, run.sql) : run.result;
      const name = `${baseName(db?.name ?? 'result')}-result.${kind}`;
      if (kind === 'csv') downloadText(name, resultToCsv(full, { protectFormulas }), 'text/csv;charset=utf-8');
      else downloadText(name, resultToJson(full), 'application/json');
      if (full.truncated) notify('warning', `The export holds the first ${formatCount(full.rows.length)} rows only.`);
      if (full.cut?.length)
        notify(
          'warning',
          `${formatCount(full.cut.length)} value${full.cut.length === 1 ? ' is' : 's are'} cut in the export (longest ${formatCount(Math.max(...full.cut.map((c) => c.length)))}); save ${full.cut.length === 1 ? 'it' : 'them'} from the grid one by one.`,
        );
    } catch (e) {
      notify('error', `Export failed: ${describeError(e)}`);
    } finally {
      setExporting(false);
    }
  };

  const copyText = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      notify('info', `Copied ${what}.`, dbId);
    } catch {
      notify('warning', `The browser did not allow copying ${what}; select the text and copy it by hand.`, dbId);
    }
  };
  const copySql = () => run.sql && void copyText(run.sql, 'the SQL');

  const downloadSql = () =>
    run.sql &&
    downloadText(
      `${baseName(db?.name ?? 'query')}.sql`,
      sqlFileText(run.sql, { database: db?.name ?? '', exportedAt: new Date().toISOString() }),
      'application/sql',
    );

  return (
    <section className="results" aria-label="Results">
      <div className="results-bar">
        <span className="results-status" data-testid="results-status">
          {mine ? statusText(run) : 'Run a query to see rows here.'}
        </span>
        {mine && run.status === 'done' && run.result && (
          <span className="row gap">
            <span className="segmented" role="group" aria-label="Show the result as">
              <button
                type="button"
                className={showChart ? 'small secondary' : 'small'}
                aria-pressed={!showChart}
                onClick={() => setShowChart(false)}
              >
                Rows
              </button>
              <button
                type="button"
                className={showChart ? 'small' : 'small secondary'}
                aria-pressed={showChart}
                onClick={() => setShowChart(true)}
              >
                Chart
              </button>
            </span>
            <button type="button" className="small secondary" onClick={copySql}>
              Copy SQL
            </button>
            <button type="button" className="small secondary" onClick={downloadSql}>
              .sql
            </button>
            <button
              type="button"
              className="small secondary"
              onClick={() => void exportRows('csv')}
              disabled={exporting}
            >
              CSV
            </button>
            <label
              className="check small"
              title="Cells starting with = + - @, a tab or CR get a leading ' so Excel, LibreOffice or Google Sheets show them as text instead of running them. Untick for the exact values."
            >
              <input
                type="checkbox"
                checked={protectFormulas}
                onChange={(e) => updateSettings({ protectCsvFormulas: e.target.checked })}
              />
              protect against spreadsheet formulas
            </label>
            <button
              type="button"
              className="small secondary"
              onClick={() => void exportRows('json')}
              disabled={exporting}
            >
              JSON
            </button>
          </span>
        )}
      </div>
      {mine && run.sql && <ResultSource run={run} dbId={dbId} />}
      {mine && run.status === 'error' && run.error && (
        <pre className="error query-error" role="alert" data-testid="query-error" data-code={run.error.code}>
          {run.error.message}
        </pre>
      )}
      {mine &&
        run.status === 'done' &&
        run.result &&
        (run.result.columns.length === 0 ? (
          <p className="muted pad">The statement returned no columns.</p>
        ) : (
          <>
            {showChart ? (
              <Suspense fallback={<p className="muted pad">Loading the chart…</p>}>
                <ChartView key={run.sql} result={run.result} dbName={db?.name ?? 'result'} />
              </Suspense>
            ) : (
              <ResultsGrid
                // A new statement starts with its rows as they came; fetching more keeps the sort.
                key={run.sql}
                result={run.result}
                onOpen={setOpened}
                sql={run.sql}
                onRunSql={(sql) => void runQuery(sql, { dbId, origin: run.origin, label: run.label })}
                onCopy={(text, what) => void copyText(text, what)}
              />
            )}
            {opened && (
              <ValueDialog
                key={`${opened.index}:${opened.column}`}
                cell={opened}
                dbName={db?.name ?? 'result'}
                load={() => wholeValue(run.result!, opened.index, opened.column)}
                onClose={() => setOpened(null)}
              />
            )}
            {run.result.truncated && (
              <div className="more">
                Showing the first {formatCount(run.result.rows.length)} rows
                {run.result.byteLimit
                  ? `: the result reached ${formatBytes(run.result.byteLimit)}, the most a page of rows holds`
                  : ''}
                .{' '}
                <button type="button" className="small" onClick={() => void fetchMore()} disabled={run.fetchingMore}>
                  {run.fetchingMore ? 'Fetching…' : 'Fetch more'}
                </button>
              </div>
            )}
          </>
        ))}
    </section>
  );
}

function statusText(run: RunState): string {
  if (run.status === 'running') return 'Running…';
  if (run.status === 'error') return `Error (${run.error?.code})`;
  if (run.status === 'done' && run.result) {
    const n = run.result.rows.length;
    const cut = run.result.cut?.length;
    return `${formatCount(n)}${run.result.truncated ? '+' : ''} row${n === 1 ? '' : 's'} · ${run.result.elapsedMs} ms${cut ? ` · ${formatCount(cut)} long value${cut === 1 ? '' : 's'} cut` : ''}`;
  }
  return '';
}

const ORIGIN_TEXT = { editor: 'Rows of', preview: 'Preview of', agent: 'The answer’s rows, of' } as const;

/**
 * Which statement produced the rows below (exports and "fetch more" use it), and whether the
 * editor still holds it: after an edit, or after the agent put its SQL there, the grid says so.
 */
function ResultSource({ run, dbId }: { run: RunState; dbId: string }) {
  const editorText = useApp((s) => s.sqlByDb[dbId] ?? '');
  const setSql = useApp((s) => s.setSql);
  const changed = run.editorText !== undefined && editorText !== run.editorText;
  const origin = run.origin ?? 'editor';
  const lead =
    run.status === 'error'
      ? 'Failed:'
      : origin === 'preview' && run.label
        ? `Preview of ${shown(run.label)}:`
        : `${ORIGIN_TEXT[origin]}:`;
  return (
    <div className="result-source small" data-testid="result-source" data-changed={changed}>
      <span className="muted">{lead}</span>{' '}
      <code className="result-sql" data-testid="result-sql" title={shownLines(run.sql ?? '')}>
        {shown(oneLine(run.sql ?? ''))}
      </code>
      {changed && (
        <span className="result-changed" data-testid="result-changed">
          {' '}
          The editor changed since these rows were made; exports use the SQL shown here.{' '}
          <button type="button" className="link small" onClick={() => setSql(dbId, run.sql ?? '')}>
            Put this SQL back in the editor
          </button>
        </span>
      )}
    </div>
  );
}

/** The statement on one line, cut at 300 characters (the whole text is in the tooltip and exports). */
function oneLine(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}
