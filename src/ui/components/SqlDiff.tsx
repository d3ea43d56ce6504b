import { diffWordsWithSpace, type Change } from 'diff';
import { shownLines } from '../lib/format';

/**
 * The previous and the new SQL side by side (stacked when narrow), word by word: removed words
 * struck in "before", added words marked in "after". Long lines wrap inside their column.
 */
export function SqlDiff({
  before,
  after,
  caption = 'SQL changed by the regeneration',
}: {
  before: string;
  after: string;
  caption?: string;
}) {
  const parts = diffWordsWithSpace(before.trim(), after.trim());
  return (
    <section className="sql-diff" data-testid="sql-diff" aria-label="Changes from the previous SQL">
      <h4 className="small">{caption}</h4>
      <div className="sql-diff-sides">
        <DiffSide side="before" parts={parts} />
        <DiffSide side="after" parts={parts} />
      </div>
    </section>
  );
}

/** One side: the shared words, plus its own changes marked (<del> before, <ins> after). */
function DiffSide({ side, parts }: { side: 'before' | 'after'; parts: Change[] }) {
  const Mark = side === 'before' ? 'del' : 'ins';
  return (
    <figure className="sql-diff-side" data-testid={`sql-diff-${side}`}>
      <figcaption>{side}</figcaption>
      <pre>
        {parts.map((p, i) => {
          const mine = side === 'before' ? p.removed : p.added;
          const theirs = side === 'before' ? p.added : p.removed;
          if (theirs) return null;
          return mine ? <Mark key={i}>{shownLines(p.value)}</Mark> : shownLines(p.value);
        })}
      </pre>
    </figure>
  );
}
