// Line ends outside literals, made plain `\n` before the read-only gate and in exported files.
// SQLite ends a `--` comment only at LF, so `SELECT 1 --\r; DROP TABLE t` is one read to it; an
// editor or a git checkout that turns the bare CR into LF would make the rest a second statement.
// Normalising first means the gate judges the text as any later conversion would leave it.

import { tokenize } from './tokens';

// CR LF, a bare CR, and the breaks some editors honour (NEL, LINE and PARAGRAPH SEPARATOR).
const LINE_END = /\r\n|[\r\u0085\u2028\u2029]/g;

/**
 * `sql` with every line end in whitespace and comments turned into `\n`. String literals and
 * quoted identifiers keep their characters: a CR inside `'…'` is data, not layout.
 */
export function normalizeLineEnds(sql: string): string {
  if (!/[\r\u0085\u2028\u2029]/.test(sql)) return sql;
  let out = '';
  let prev = 0;
  for (const t of tokenize(sql)) {
    if (t.kind !== 'space' && t.kind !== 'comment') continue;
    out += sql.slice(prev, t.start) + t.text.replace(LINE_END, '\n');
    prev = t.end;
  }
  const once = out + sql.slice(prev);
  // A comment that a CR used to hide can now end early and expose text that holds further
  // line ends (`--\r x \r y`): repeat until nothing changes.
  return once === sql ? once : normalizeLineEnds(once);
}
