import type { ToolCallOutcome } from '../../../core/tools/registry';
import type { ColumnHit, JoinPath, ValueHit } from '../../../core/retrieval/types';
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
      <table className="mini">
        <thead>
          <tr>
            <th>#</th>
            <th>Column</th>
            <th>Type</th>
            <th>Score</th>
            <th>Why</th>
          </tr>
        </thead>
        <tbody>
          {hits.map((h, i) => (
            <tr key={`${h.table}.${h.column}`}>
              <td>{i + 1}</td>
              <td>{shown(`${h.table}.${h.column}`)}</td>
              <td>{shown(h.declaredType)}</td>
              <td>{h.score}</td>
              <td className="muted">{shown(h.reasons.join(', '))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  if (tool === 'search_value') {
    const hits = ((output as { hits?: ValueHit[] }).hits ?? []) as ValueHit[];
    return (
      <table className="mini">
        <thead>
          <tr>
            <th>#</th>
            <th>Value</th>
            <th>Column</th>
            <th>Rows</th>
            <th>Match</th>
          </tr>
        </thead>
        <tbody>
          {hits.map((h, i) => (
            <tr key={`${h.table}.${h.column}.${i}`}>
              <td>{i + 1}</td>
              <td>{valueText(h.value, 80)}</td>
              <td>{shown(`${h.table}.${h.column}`)}</td>
              <td>{h.rows}</td>
              <td className="muted">{h.match}</td>
            </tr>
          ))}
        </tbody>
      </table>
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
