// A small SQLite lexer: enough to find statement boundaries, comments, strings and keywords
// without being fooled by `;` or `--` inside literals and quoted identifiers.

export type TokenKind = 'word' | 'string' | 'ident' | 'number' | 'comment' | 'space' | 'punct' | 'param';

export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

/** The whitespace SQLite's tokenizer knows (ASCII only). */
const SQLITE_SPACE = /[ \t\n\f\r\v]/;

/**
 * End of a named parameter, with exactly SQLite's extent (tokenize.c, CC_VARALPHA): after the
 * name, Tcl-style `::part` and a `(suffix)` that runs to the next `)` or space. The suffix may
 * hold `;` and quotes: `$a(');DELETE FROM t;--')` is ONE token to SQLite, so reading the `'` as
 * the start of a string here would hide a second statement from the read-only gate.
 */
function namedParamEnd(sql: string, i: number): number {
  const n = sql.length;
  let nameChars = 0;
  i++; // the sigil
  while (i < n) {
    const ch = sql[i];
    if (WORD_PART.test(ch)) {
      nameChars++;
      i++;
    } else if (ch === '(' && nameChars > 0) {
      i++;
      while (i < n && !SQLITE_SPACE.test(sql[i]) && sql[i] !== ')') i++;
      if (sql[i] === ')') i++;
      break;
    } else if (ch === ':' && sql[i + 1] === ':') {
      i += 2;
    } else {
      break;
    }
  }
  return i;
}

export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = sql.length;
  const push = (kind: TokenKind, start: number, end: number) => {
    out.push({ kind, text: sql.slice(start, end), start, end });
  };
  while (i < n) {
    const c = sql[i];
    const start = i;
    if (/\s/.test(c)) {
      while (i < n && /\s/.test(sql[i])) i++;
      push('space', start, i);
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
      push('comment', start, i);
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? n : close + 2;
      push('comment', start, i);
    } else if (c === "'" || c === '"' || c === '`') {
      // Doubled quote characters escape themselves; an unterminated literal runs to the end.
      i++;
      while (i < n) {
        if (sql[i] === c) {
          if (sql[i + 1] === c) i += 2;
          else {
            i++;
            break;
          }
        } else i++;
      }
      push(c === "'" ? 'string' : 'ident', start, i);
    } else if (c === '[') {
      const close = sql.indexOf(']', i + 1);
      i = close === -1 ? n : close + 1;
      push('ident', start, i);
    } else if ((c === 'x' || c === 'X') && sql[i + 1] === "'") {
      const close = sql.indexOf("'", i + 2);
      i = close === -1 ? n : close + 1;
      push('string', start, i);
    } else if (WORD_START.test(c)) {
      while (i < n && WORD_PART.test(sql[i])) i++;
      push('word', start, i);
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      while (i < n && /[0-9a-zA-Z_.]/.test(sql[i])) {
        // exponent sign: 1e-5
        if ((sql[i] === 'e' || sql[i] === 'E') && (sql[i + 1] === '-' || sql[i + 1] === '+')) i++;
        i++;
      }
      push('number', start, i);
    } else if (c === '?') {
      i++;
      while (i < n && /[0-9]/.test(sql[i])) i++;
      push('param', start, i);
    } else if (c === ':' || c === '@' || c === '$' || c === '#') {
      i = namedParamEnd(sql, i);
      push(i - start > 1 ? 'param' : 'punct', start, i);
    } else {
      i++;
      push('punct', start, i);
    }
  }
  return out;
}

/** Tokens that carry meaning (no whitespace, no comments). */
export function significant(tokens: Token[]): Token[] {
  return tokens.filter((t) => t.kind !== 'space' && t.kind !== 'comment');
}

/** The unquoted name of an identifier token: `"a""b"` -> `a"b`, `[x]` -> `x`. */
export function identName(t: Token): string {
  if (t.kind === 'ident') {
    const q = t.text[0];
    if (q === '[') return t.text.slice(1, -1);
    return t.text
      .slice(1, -1)
      .split(q + q)
      .join(q);
  }
  return t.text;
}
