import { diffLines } from 'diff';

/** The previous and the new SQL, line by line (removed lines struck, added lines marked). */
export function SqlDiff({ before, after }: { before: string; after: string }) {
  const parts = diffLines(before.trim() + '\n', after.trim() + '\n');
  return (
    <pre className="sql-diff small" data-testid="sql-diff" aria-label="Changes from the previous SQL">
      {parts.map((p, i) => (
        <span key={i} className={p.added ? 'diff-add' : p.removed ? 'diff-del' : undefined}>
          {p.value
            .split('\n')
            .filter((l, j, all) => j < all.length - 1 || l !== '')
            .map((l) => `${p.added ? '+ ' : p.removed ? '- ' : '  '}${l}\n`)
            .join('')}
        </span>
      ))}
    </pre>
  );
}
