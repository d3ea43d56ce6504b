import { describeError } from '../../../core/errors';
import type { ColumnStats } from '../../../core/types';
import { formatCount, valueText } from '../../lib/format';
import { useColumnStats } from '../../queries/hooks';

export function ColumnStatsView({ dbId, table, column }: { dbId: string; table: string; column: string }) {
  const stats = useColumnStats(dbId, table, column, true);
  if (stats.isPending) return <p className="muted small stats">Computing statistics…</p>;
  if (stats.isError) return <p className="error small stats">Statistics failed: {describeError(stats.error)}</p>;
  return <StatsBody s={stats.data} />;
}

function StatsBody({ s }: { s: ColumnStats }) {
  const classes = Object.entries(s.storageClasses)
    .filter(([k]) => k !== 'null')
    .map(([k, n]) => `${k} ${formatCount(n)}`)
    .join(', ');
  return (
    <dl className="stats small" data-testid="column-stats">
      {s.approximate && (
        <>
          <dt>Note</dt>
          <dd>approximate: first {formatCount(s.rowsScanned)} rows</dd>
        </>
      )}
      <dt>Nulls</dt>
      <dd>
        {formatCount(s.nullCount)} of {formatCount(s.rowsScanned)}
      </dd>
      <dt>Distinct</dt>
      <dd>{formatCount(s.distinctCount)}</dd>
      {classes && (
        <>
          <dt>Stored as</dt>
          <dd>{classes}</dd>
        </>
      )}
      {s.min !== null && (
        <>
          <dt>{s.looksLikeDate ? 'Dates' : 'Range'}</dt>
          <dd>
            {valueText(s.min, 30)} … {valueText(s.max, 30)}
          </dd>
        </>
      )}
      {s.avgLength != null && (
        <>
          <dt>Avg length</dt>
          <dd>{s.avgLength} chars</dd>
        </>
      )}
      {s.categories ? (
        <>
          <dt>Values</dt>
          <dd>
            <ul className="plain">
              {s.categories.map((c, i) => (
                <li key={i}>
                  {valueText(c.value)} <span className="muted">× {formatCount(c.count)}</span>
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : (
        s.samples.length > 0 && (
          <>
            <dt>Examples</dt>
            <dd>
              {s.samples.map((v, i) => (
                <span key={i} className="chip">
                  {valueText(v, 40)}
                </span>
              ))}
            </dd>
          </>
        )
      )}
    </dl>
  );
}
