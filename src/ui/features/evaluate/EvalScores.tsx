import { summarize, type Distribution, type Score } from '../../../core/eval/eval-summary';
import type { Evaluation } from '../../store/evaluate-store';

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${x.toFixed(1)}%`);
const num = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 1 });

function ScoreRows({ label, groups }: { label: string; groups: Record<string, Score> }) {
  return (
    <table className="mini" aria-label={`Accuracy by ${label}`}>
      <thead>
        <tr>
          <th>{label}</th>
          <th>questions</th>
          <th>correct</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(groups).map(([k, s]) => (
          <tr key={k}>
            <td>{k}</td>
            <td>{s.n}</td>
            <td>{pct(s.ex)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CostRow({ label, d }: { label: string; d: Distribution }) {
  return (
    <tr>
      <td>{label}</td>
      <td>{num(d.mean)}</td>
      <td>{num(d.p50)}</td>
      <td>{num(d.p90)}</td>
      <td>{num(d.max)}</td>
    </tr>
  );
}

/** Execution accuracy (overall, by hardness, by tables joined) and the cost per question. */
export function EvalScores({ evaluation }: { evaluation: Evaluation }) {
  const { summary, details } = summarize(
    evaluation.rows.map((r) => r.record),
    { softF1: evaluation.rule === 'bird', selected: evaluation.total },
  );
  const t = summary.tokensPerQuestion;
  return (
    <div className="card" data-testid="eval-scores">
      <h3>
        Correct: <span data-testid="eval-ex">{pct(summary.ex)}</span> of {summary.n} scored
        {summary.softF1 !== undefined && <> · soft F1 {pct(summary.softF1)}</>}
        {summary.failed > 0 && <> · {summary.failed} failed (model unreachable)</>}
        {summary.skipped > 0 && <> · {summary.skipped} skipped</>}
      </h3>
      <div className="eval-groups">
        <ScoreRows label="hardness" groups={summary.byDifficulty} />
        <ScoreRows label="tables joined" groups={details.byJoinedTables} />
      </div>
      <table className="mini" aria-label="Cost per question" data-testid="eval-cost">
        <thead>
          <tr>
            <th>per question</th>
            <th>mean</th>
            <th>median</th>
            <th>p90</th>
            <th>max</th>
          </tr>
        </thead>
        <tbody>
          <CostRow label="input tokens" d={t.input} />
          <CostRow label="cached input tokens" d={t.cached} />
          <CostRow label="output tokens" d={t.output} />
          <CostRow label="model requests" d={summary.requestsPerQuestion} />
          <CostRow label="tool calls" d={details.toolCallsPerQuestion} />
          <CostRow label="seconds" d={summary.secondsPerQuestion} />
        </tbody>
      </table>
      {details.tokensEstimated && (
        <p className="muted small">Some token counts are estimates (the provider reported none).</p>
      )}
    </div>
  );
}
