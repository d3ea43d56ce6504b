// Core's own SQL numbers its parameters as SQLite reads them (`?`); PostgreSQL reads `$1`, `$2`.
// Only parameter tokens change (the SQLite lexer tells them from a `?` inside a string).

import { tokenize } from '../../sql/tokens';

export function numberedParams(sql: string): string {
  if (!sql.includes('?')) return sql;
  let n = 0;
  return tokenize(sql)
    .map((t) => (t.kind === 'param' && t.text === '?' ? `$${++n}` : t.text))
    .join('');
}
