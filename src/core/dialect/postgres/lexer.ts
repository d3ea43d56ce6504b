// A PostgreSQL lexer with the extents of the server's own scanner (scan.l) for everything that can
// hide text from the read-only gate: dollar-quoted strings ($tag$ … $tag$), E'' strings with
// backslash escapes, U&'' and U&"" forms, nested /* */ comments, and `$1` parameters. What the
// gate reads as a word must be what the server reads as one, or a name could slip past it.

import type { Token, TokenKind } from '../../sql/tokens';

// scan.l: ident_start [A-Za-z\200-\377_], ident_cont adds digits and $. Every non-ASCII character
// is a letter to the server (in UTF-8 each byte of it is \200-\377).
const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_CONT = /[A-Za-z0-9_$\u0080-\uffff]/;
// The server's whitespace: space, \t \n \r \f \v (scan.l `space`).
const SPACE = /[ \t\n\r\f\v]/;
// A dollar-quote delimiter: $tag$ where tag is an identifier without $, or empty.
const DOLLAR_TAG = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

/** Thrown for text the server would refuse to read at all (an unterminated quote or comment). */
export class LexError extends Error {}

export function tokenizePostgres(sql: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < sql.length; ) {
    const { kind, end } = scanToken(sql, i);
    out.push({ kind, text: sql.slice(i, end), start: i, end });
    i = end;
  }
  return out;
}

interface Scanned {
  kind: TokenKind;
  end: number;
}

/** The token starting at `i`: each kind of token has its own scanner, tried in the server's order. */
function scanToken(sql: string, i: number): Scanned {
  const c = sql[i];
  if (SPACE.test(c)) {
    let end = i;
    while (end < sql.length && SPACE.test(sql[end])) end++;
    return { kind: 'space', end };
  }
  if (c === '-' && sql[i + 1] === '-') {
    let end = i;
    while (end < sql.length && sql[end] !== '\n' && sql[end] !== '\r') end++;
    return { kind: 'comment', end };
  }
  if (c === '/' && sql[i + 1] === '*') return { kind: 'comment', end: blockCommentEnd(sql, i) };
  if (c === '$') return scanDollar(sql, i);
  return scanQuoted(sql, i) ?? scanWordOrNumber(sql, i);
}

/** '…', E'…' (backslash escapes), B'…', X'…', N'…', U&'…', "…" and U&"…". */
function scanQuoted(sql: string, i: number): Scanned | null {
  const c = sql[i];
  const next = sql[i + 1];
  if (c === "'") return { kind: 'string', end: quotedEnd(sql, i, "'", false) };
  if (c === '"') return { kind: 'ident', end: quotedEnd(sql, i, '"', false) };
  if ((c === 'E' || c === 'e') && next === "'") return { kind: 'string', end: quotedEnd(sql, i + 1, "'", true) };
  if (/[BbXxNn]/.test(c) && next === "'") return { kind: 'string', end: quotedEnd(sql, i + 1, "'", false) };
  if ((c === 'U' || c === 'u') && next === '&' && (sql[i + 2] === "'" || sql[i + 2] === '"')) {
    const quote = sql[i + 2];
    return { kind: quote === '"' ? 'ident' : 'string', end: quotedEnd(sql, i + 2, quote, false) };
  }
  return null;
}

/** A dollar-quoted string ($tag$ … $tag$), a parameter ($1), or a lone $. */
function scanDollar(sql: string, i: number): Scanned {
  const tag = DOLLAR_TAG.exec(sql.slice(i, i + 64));
  if (tag) {
    const close = sql.indexOf(tag[0], i + tag[0].length);
    if (close === -1) throw new LexError('an unterminated dollar-quoted string');
    return { kind: 'string', end: close + tag[0].length };
  }
  let end = i + 1;
  while (end < sql.length && /[0-9]/.test(sql[end])) end++;
  return { kind: end > i + 1 ? 'param' : 'punct', end };
}

function scanWordOrNumber(sql: string, i: number): Scanned {
  const c = sql[i];
  let end = i + 1;
  if (IDENT_START.test(c)) {
    while (end < sql.length && IDENT_CONT.test(sql[end])) end++;
    return { kind: 'word', end };
  }
  if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
    end = i;
    while (end < sql.length && /[0-9a-zA-Z_.]/.test(sql[end])) {
      if (sql[end] === '.' && sql[end + 1] === '.') break; // 1..2 is not a number
      if ((sql[end] === 'e' || sql[end] === 'E') && (sql[end + 1] === '-' || sql[end + 1] === '+')) end++;
      end++;
    }
    return { kind: 'number', end };
  }
  return { kind: 'punct', end };
}

/** Block comments nest in PostgreSQL: `/* a /* b *\/ still comment *\/`. */
function blockCommentEnd(sql: string, i: number): number {
  let depth = 0;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  throw new LexError('an unterminated /* comment');
}

/**
 * The end of a quoted string or identifier opening at `i`: a doubled quote escapes itself, and in
 * an E'' string a backslash escapes the next character. Adjacent string pieces separated by a
 * newline (`'a'\n'b'`) are separate tokens here; the server joins them, which changes nothing the
 * gate looks at.
 */
function quotedEnd(sql: string, i: number, quote: string, backslashes: boolean): number {
  i++;
  while (i < sql.length) {
    const ch = sql[i];
    if (backslashes && ch === '\\') i += 2;
    else if (ch === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  throw new LexError(quote === '"' ? 'an unterminated quoted identifier' : 'an unterminated string');
}

/**
 * The name the server resolves for a word or quoted identifier: unquoted words fold ASCII letters
 * to lower case only (downcase_identifier), quoted ones keep theirs. U&"" forms are left as
 * written (with their escapes), so they never equal a name on an allow-list by accident.
 */
export function postgresName(t: Token): string {
  if (t.kind === 'ident') {
    if (t.text[0] !== '"') return t.text;
    return t.text.slice(1, -1).replaceAll('""', '"');
  }
  return t.text.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
}
