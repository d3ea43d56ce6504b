// The server's errors as DowserErrors with the same codes as SQLite's: the SQLSTATE picks the code,
// the server's own hint ("Perhaps you meant to reference the column …") and the error's position
// (line and column in the statement) go into the detail, for the person and for the repair turn.

import { DowserError } from '../../core/errors';

interface PgErrorLike {
  code?: string;
  message: string;
  hint?: string;
  detail?: string;
  position?: string;
}

/** Line and column (1-based) of a 1-based character position in `sql`. */
export function lineColumn(sql: string, position: number): { line: number; column: number } {
  const before = sql.slice(0, Math.max(0, position - 1));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

export function serverError(e: unknown, sql: string | null, timeoutMs: number): DowserError {
  if (e instanceof DowserError) return e;
  const err = (e && typeof e === 'object' ? e : { message: String(e) }) as PgErrorLike & { errno?: number };
  const code = typeof err.code === 'string' ? err.code : '';
  if (code === '57014')
    return /statement timeout/i.test(err.message)
      ? new DowserError('timeout', `The query took longer than ${timeoutMs / 1000} s and was stopped by the server.`)
      : new DowserError('cancelled', 'Stopped: the query was cancelled.');
  if (code === '25006')
    return new DowserError('read_only', `The server refused it: ${err.message} (only reading is allowed).`);
  if (/^28/.test(code)) return new DowserError('open_failed', `The server refused the connection: ${err.message}.`);
  if (/^(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|ECONNRESET|ENOENT)$/.test(code))
    return new DowserError('open_failed', `Cannot reach the server: ${err.message}.`);
  if (!/^[0-9A-Z]{5}$/.test(code)) return new DowserError('internal', err.message);
  const detail: string[] = [];
  if (err.hint) detail.push(`Hint: ${err.hint}`);
  if (err.detail) detail.push(err.detail);
  // Where the server stopped, in the message as SQLite's syntax errors say it (line and column).
  let message = err.message;
  if (sql && err.position && /^\d+$/.test(err.position)) {
    const at = lineColumn(sql, Number(err.position));
    message += ` (at line ${at.line}, column ${at.column})`;
  }
  // Class 22 (data exception) and 23 (integrity) are raised while reading rows: they can quote a cell.
  return new DowserError('sql_error', message, detail.join(' ') || undefined, /^2[23]/.test(code));
}
