// Database text inside observations is data, never instructions: it is always written as a
// JSON string literal (quotes, newlines and control characters escaped) and cut to a length.
// Every cell value is also marked (privacy/marks.ts) so the privacy gate, the one road to a
// model, can keep, reduce or drop it at the level the person chose (privacy/disclose.ts).

import { MARKS, markRow, markValue } from '../privacy/marks';
import { SQLITE_RUNTIME_WORDS } from '../sql/runtime-messages';
import { identName, tokenize, type Token } from '../sql/tokens';
import { promptIdent } from '../prompt/schema-text';
import type { Schema, SqlValue } from '../types';

// JSON.stringify escapes only U+0000-U+001F: C1 controls (U+0085 is a line break to some) and
// the line and paragraph separators stay raw, so they are escaped here too, and so are the
// privacy marks, so data can never close one early (a forged mark elsewhere can only make the gate
// withhold more, never less: privacy/disclose.ts).
const RAW_IN_JSON = /[\u0080-\u009f\u2028\u2029\uE000-\uE003]/g;

/** `text` as a JSON string literal that holds no line break of any kind. */
export function jsonData(text: string): string {
  return JSON.stringify(text).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A cell value as the model may read it: quoted, cut, and marked as data for the privacy gate. */
export function quoteData(v: SqlValue, maxChars = 60): string {
  if (v === null) return 'NULL';
  if (v instanceof Uint8Array) return `<blob ${v.length} bytes>`;
  if (typeof v === 'string') return markValue(jsonData(v.length > maxChars ? v.slice(0, maxChars) + '…' : v));
  return markValue(String(v));
}

/** A text cell value whole (no cut), quoted and marked. */
export const valueData = (text: string): string => markValue(jsonData(text));

/** One row of a preview (`a | b | c`): withheld as a whole below the full level. */
export const rowData = (row: readonly SqlValue[], maxChars = 60): string =>
  markRow(row.map((v) => quoteData(v, maxChars)).join(' | '));

/** Where an error message's own words end and what it quotes begins: `: `, a quote, a bracket. */
const QUOTED_PART = /[:'"[]/;
const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * An error's message as a model may read it. SQLite's message for a statement that failed while
 * reading rows can quote cell values (`bad JSON path: '…'` of `'x' || name`; with group_concat a
 * whole column), so there everything after SQLite's own words (runtime-messages.ts) is marked as
 * one value: the privacy gate keeps it at full and withholds it below. Other errors (compile
 * errors, Dowser's own) hold the SQL's and the schema's text only, and are left as they are.
 */
export function errorData(err: { message: string; quotesData?: boolean }): string {
  const { message } = err;
  if (!err.quotesData) return message;
  let own = message.search(QUOTED_PART);
  if (own < 0) own = message.length;
  for (const w of message.slice(0, own).matchAll(WORD))
    if (!SQLITE_RUNTIME_WORDS.has(w[0].toLowerCase())) {
      own = w.index;
      break;
    }
  const [, open, data, close] = /^([\s:'"[]*)([\s\S]*?)(['"\]]?)$/.exec(message.slice(own))!;
  // A mark character inside the data could close the mark early: written as its escape instead.
  const inert = data.replace(MARKS, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return message.slice(0, own) + open + (data ? markValue(inert) : '') + close;
}

/** A literal's quotes (or a comment's marks), its body, and its closing quote when it has one. */
const LITERAL_PARTS = /^([xX]?'|"|--|\/\*)([\s\S]*?)('|"|\*\/)?$/;

/** A count after LIMIT or OFFSET is no value from the data; any other number may be one. */
const COUNT_WORDS = /^(limit|offset)$/i;

/** Whether a token of SQL written in another run can hold a value from the database. */
function holdsValue(t: Token, count: boolean, names: ReadonlySet<string> | undefined): boolean {
  if (t.kind === 'string' || t.kind === 'comment') return true;
  if (t.kind === 'number') return !count;
  // SQLite reads "x" as a string when no column is named x.
  if (t.kind === 'ident' && t.text.startsWith('"')) return !names?.has(identName(t).toLowerCase());
  return false;
}

/** A part of SQL `sqlData` marks as a value: the token as written, and the body the gate judges. */
export interface SqlValuePart {
  /** The token as the SQL has it ('Vexbridge' with its quotes, 918273, a comment). */
  text: string;
  /** What is marked: the literal's body without its quotes, or the number. */
  body: string;
}

/** The parts of `sql` that `sqlData` marks as values, in order. */
export function sqlValueParts(sql: string, names?: ReadonlySet<string>): SqlValuePart[] {
  const parts: SqlValuePart[] = [];
  let count = false;
  for (const t of tokenize(sql)) {
    if (holdsValue(t, count, names)) {
      if (t.kind === 'number') parts.push({ text: t.text, body: t.text });
      else {
        const [, , body] = LITERAL_PARTS.exec(t.text) as unknown as [string, string, string];
        if (body) parts.push({ text: t.text, body });
      }
    }
    count = countFollows(t, count, sql);
  }
  return parts;
}

/** Whether the token after `t` is a LIMIT or OFFSET count (a number right after them, or after `LIMIT n,`). */
function countFollows(t: Token, count: boolean, sql: string): boolean {
  if (t.kind === 'word') return COUNT_WORDS.test(t.text);
  if (t.kind === 'number') return count && /^\s*,/.test(sql.slice(t.end));
  if (t.kind !== 'space' && t.kind !== 'comment' && t.text !== ',') return false;
  return count;
}

/**
 * SQL that a model wrote in another run — a confirmed example, an earlier turn of the
 * conversation — as a JSON string literal whose literals (strings, numbers other than LIMIT and
 * OFFSET counts, comments, double-quoted text that names no column) are marked as values: that
 * run may have read them at a fuller privacy level, so the gate decides on them again. At full it
 * reads exactly as `jsonData(sql)`. `names` (lower-case) are the schema's names.
 */
export function sqlData(sql: string, names?: ReadonlySet<string>): string {
  const inner = (text: string) => jsonData(text).slice(1, -1);
  let out = '';
  // A number right after LIMIT or OFFSET (or after `LIMIT n,`) is a count, not a value.
  let count = false;
  for (const t of tokenize(sql)) {
    if (!holdsValue(t, count, names)) out += inner(t.text);
    else if (t.kind === 'number') out += markValue(t.text);
    else {
      // The quotes and comment marks stay outside the mark: the model still reads a literal there.
      const [, open, body, close] = LITERAL_PARTS.exec(t.text) as unknown as [
        string,
        string,
        string,
        string | undefined,
      ];
      out += inner(open) + (body ? markValue(inner(body)) : '') + inner(close ?? '');
    }
    count = countFollows(t, count, sql);
  }
  return `"${out}"`;
}

/**
 * A result column's name as a model may read it. SQLite names an un-aliased expression by its text,
 * literals and all (`max(CASE WHEN name='Tamsin' THEN code END)`): such a name goes as `sqlData`
 * (a JSON string, its literals marked), so SQL written at a fuller level does not send, through its
 * columns, the values its own text withholds; any other name as an identifier (`promptIdent`).
 */
export function columnData(name: string, names?: ReadonlySet<string>): string {
  return sqlValueParts(name, names).length ? sqlData(name, names) : promptIdent(name);
}

/** The schema's table and column names, lower-case: for `sqlData`'s double-quoted names. */
export function schemaNames(schema: Schema): ReadonlySet<string> {
  return new Set(schema.tables.flatMap((t) => [t.name, ...t.columns.map((c) => c.name)]).map((n) => n.toLowerCase()));
}

/** Text quoted inside prose: 'Brindlemoor', "Brindlemoor", ‘…’, “…”, `…`. */
const QUOTED_IN_PROSE = /'[^'\n]*'|"[^"\n]*"|‘[^’\n]*’|“[^”\n]*”|`[^`\n]*`/g;

/**
 * Prose a model wrote in another run (a confirmed example's plan) as a JSON string literal, its
 * quoted parts marked as values: such a plan says `city = 'Brindlemoor'` as its SQL does.
 */
export function quotedData(text: string): string {
  const inner = (part: string) => jsonData(part).slice(1, -1);
  let out = '';
  let at = 0;
  for (const m of text.matchAll(QUOTED_IN_PROSE)) {
    const body = m[0].slice(1, -1);
    out +=
      inner(text.slice(at, m.index)) + inner(m[0][0]) + (body ? markValue(inner(body)) : '') + inner(m[0].slice(-1));
    at = m.index + m[0].length;
  }
  return `"${out}${inner(text.slice(at))}"`;
}
