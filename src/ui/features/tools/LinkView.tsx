import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describeError } from '../../../core/errors';
import type { QuestionLink } from '../../../core/retrieval/linker';
import { linkQuestion } from '../../actions/tools';
import { shown } from '../../lib/format';
import { queryKeys } from '../../queries';

/** The question with its linked spans marked; every piece is rendered as text. */
export function LinkView({ dbId, question }: { dbId: string; question: string }) {
  const links = useQuery({ queryKey: queryKeys.links(dbId, question), queryFn: () => linkQuestion(dbId, question) });
  if (links.isPending) return <p className="muted">Linking…</p>;
  if (links.isError) return <p className="error">{describeError(links.error)}</p>;
  return (
    <div className="tool-output" data-testid="link-view">
      <p className="linked-question">{highlight(question, links.data)}</p>
      <table className="mini">
        <thead>
          <tr>
            <th>Words</th>
            <th>Kind</th>
            <th>Links to</th>
            <th>Score</th>
          </tr>
        </thead>
        <tbody>
          {links.data.map((l, i) => (
            <tr key={i}>
              <td>{shown(l.text)}</td>
              <td>{l.kind}</td>
              <td>{shown(target(l))}</td>
              <td>{l.score}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const target = (l: QuestionLink) =>
  `${l.table}${l.column ? `.${l.column}` : ''}${l.value !== undefined ? ` = ${JSON.stringify(l.value)}` : ''}`;

/** Best link per span, longest first; overlapping spans keep the earlier, longer one. */
function highlight(question: string, links: QuestionLink[]): ReactNode[] {
  const chosen: QuestionLink[] = [];
  const rank = { value: 3, exact: 2, partial: 1 } as const;
  for (const l of [...links].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || rank[b.kind] - rank[a.kind] || b.score - a.score,
  )) {
    if (!chosen.some((c) => l.start < c.end && c.start < l.end)) chosen.push(l);
  }
  chosen.sort((a, b) => a.start - b.start);
  const out: ReactNode[] = [];
  let at = 0;
  chosen.forEach((l, i) => {
    if (l.start > at) out.push(shown(question.slice(at, l.start)));
    out.push(
      <mark key={i} className={`link-${l.kind}`} title={shown(`${l.kind}: ${target(l)}`)}>
        {shown(question.slice(l.start, l.end))}
      </mark>,
    );
    at = l.end;
  });
  if (at < question.length) out.push(shown(question.slice(at)));
  return out;
}
