// Where SQLite's parser stopped. sql.js does not expose sqlite3_error_offset, but SQLite names the
// token it could not place (`near "SELEC": syntax error`): its first occurrence as a token of the
// statement gives the line and column a person can look at.

import { significant, tokenize } from './tokens';

/** `message` with ` (line L, column C)` added when it is a syntax error whose token is found in `sql`. */
export function withSyntaxPosition(message: string, sql: string): string {
  const near = /near "([^"]*)": syntax error/.exec(message);
  let offset: number | undefined;
  if (near) offset = significant(tokenize(sql)).find((t) => t.text === near[1])?.start;
  else if (/incomplete input/.test(message)) offset = sql.trimEnd().length;
  if (offset === undefined || /\(line \d+, column \d+\)/.test(message)) return message;
  const before = sql.slice(0, offset).split('\n');
  return `${message} (line ${before.length}, column ${before[before.length - 1].length + 1})`;
}
