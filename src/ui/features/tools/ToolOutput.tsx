import type { ToolCallOutcome } from '../../../core/tools/registry';
import type { ColumnHit, JoinPath, ValueHit } from '../../../core/retrieval/types';
import type { ReactNode } from 'react';
import { shown, shownLines, valueText } from '../../lib/format';

/** A tool's result for people (a small table) and, below, exactly the text the agent reads. */
export function ToolOutput({ outcome }: { outcome: ToolCallOutcome }) {
  return (
    <div className="tool-output" data-testid="tool-output">
      {outcome.ok && <Structured tool={outcome.tool} output={outcome.output} />}
      <h3>
        What the agent sees <span className="muted small">({outcome.ms} ms)</span>
      </h3>
      <pre className="observation" data-testid="observation">
        {shownLines(outcome.observation)}
      </pre>
    </div>
  );
}

function Structured({ tool, output }: { tool: string; output: unknown }) {
  if (tool === 'search_column') {
    const hits = (output as { hits: ColumnHit[] }).hits;
    return (
      <RankTable
        headers={['Column', 'Type', 'Score', 'Why']}
        rows={hits.map((h) => ({
          key: `${h.table}.${h.column}`,
          cells: [shown(`${h.table}.${h.column}`), shown(h.declaredType), h.score, shown(h.reasons.join(', '))],
        }))}
      />
    );
  }
  if (tool === 'search_value') {
    const hits = ((output as { hits?: ValueHit[] }).hits ?? []) as ValueHit[];
    return (
      <RankTable
        headers={['Value', 'Column', 'Rows', 'Match']}
        rows={hits.map((h, i) => ({
          key: `${h.table}.${h.column}.${i}`,
          cells: [valueText(h.value, 80), shown(`${h.table}.${h.column}`), h.rows, h.match],
        }))}
      />
    );
  }
  if (tool === 'find_shortest_path') {
    const r = output as { ok: boolean; paths?: JoinPath[] };
    if (!r.ok || !r.paths?.length) return null;
    return (
      <ol className="paths">
        {r.paths.map((p, i) => (
          <li key={i}>
            <div>
              {shown(p.tables.join(' → '))}
              {p.edges.some((e) => e.inferred) && <span className="badge">inferred key</span>}
            </div>
            <code>{shownLines(p.joinClause)}</code>
          </li>
        ))}
      </ol>
    );
  }
  return null;
}

/** Hits in rank order: a number column, then the cells (the last one muted: why, or how it matched). */
function RankTable({ headers, rows }: { headers: string[]; rows: Array<{ key: string; cells: ReactNode[] }> }) {
  return (
    <table className="mini">
      <thead>
        <tr>
          <th>#</th>
          {headers.map((h) => (
            <th key={h}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={r.key}>
            <td>{i + 1}</td>
            {r.cells.map((c, j) => (
              <td key={j} className={j === r.cells.length - 1 ? 'muted' : undefined}>
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
