// Typed error codes, shown the same way in the page and in the CLI.

/** Every code, in one list (an error that crossed a wire is checked against it). */
export const ERROR_CODES = [
  'not_sqlite',
  'empty_file',
  'encrypted',
  'too_large',
  'corrupt',
  'open_failed',
  'read_only',
  'multiple_statements',
  'empty_statement',
  'sql_error',
  'timeout',
  'cancelled',
  'unknown_database',
  // Built for SQLite, not yet for the engine this database is on.
  'unsupported',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class DowserError extends Error {
  readonly code: ErrorCode;
  readonly detail?: string;
  /**
   * SQLite raised it while reading rows (not while compiling): its message can quote cell values
   * (`bad JSON path: '…'` of a column's text), so a model reads it through the privacy gate
   * (tools/quote-data.ts `errorData`). Compile errors depend on the SQL and the schema only.
   */
  readonly quotesData?: boolean;

  constructor(code: ErrorCode, message: string, detail?: string, quotesData?: boolean) {
    super(message);
    this.name = 'DowserError';
    this.code = code;
    this.detail = detail;
    if (quotesData) this.quotesData = true;
  }
}

/** Anything thrown (sql.js throws plain strings for some errors) as a DowserError. */
export function toDowserError(e: unknown, fallback: ErrorCode = 'internal'): DowserError {
  if (e instanceof DowserError) return e;
  if (
    e &&
    typeof e === 'object' &&
    'code' in e &&
    'message' in e &&
    typeof (e as { code: unknown }).code === 'string'
  ) {
    const o = e as { code: ErrorCode; message: string; detail?: string; quotesData?: boolean };
    return new DowserError(o.code, o.message, o.detail, o.quotesData === true);
  }
  if (e instanceof Error) return new DowserError(fallback, e.message);
  return new DowserError(fallback, String(e));
}

export function describeError(e: unknown): string {
  const err = toDowserError(e);
  return err.detail ? `${err.message}\n${err.detail}` : err.message;
}
