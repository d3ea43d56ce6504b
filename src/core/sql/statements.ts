// Statement splitting (for "run the statement under the cursor") and the first, keyword-level
// read-only gate. The engine adds a second gate on the compiled bytecode (see bytecode-guard.ts).

import { DowserError } from '../errors';
import { normalizeLineEnds } from './line-ends';
import { identName, significant, tokenize, type Token } from './tokens';

export interface StatementSpan {
  /** Offset of the statement's first token: leading blanks and comments are not part of it. */
  start: number;
  /** Offset just after its last token, before any `;` and trailing blanks or comments. */
  end: number;
  text: string;
}

/**
 * Split on top-level `;`. Spans with only whitespace or comments are dropped.
 * CREATE TRIGGER bodies are not special-cased: such statements are refused anyway.
 */
export function splitStatements(sql: string): StatementSpan[] {
  const spans: StatementSpan[] = [];
  let first: Token | null = null;
  let last: Token | null = null;
  const flush = () => {
    if (first && last) spans.push({ start: first.start, end: last.end, text: sql.slice(first.start, last.end) });
    first = last = null;
  };
  for (const t of tokenize(sql)) {
    if (t.kind === 'punct' && t.text === ';') flush();
    else if (t.kind !== 'space' && t.kind !== 'comment') {
      first ??= t;
      last = t;
    }
  }
  flush();
  return spans;
}

/**
 * The statement the cursor is in. When the cursor sits after a statement's `;` on blank or
 * comment text, the statement before it is meant (what people expect after typing `;`).
 */
export function statementAt(sql: string, offset: number): StatementSpan | null {
  const spans = splitStatements(sql);
  if (spans.length === 0) return null;
  let best: StatementSpan = spans[0];
  for (const s of spans) {
    if (s.start <= offset) best = s;
  }
  return best;
}

const READ_PRAGMAS_NO_ARG = new Set([
  'integrity_check',
  'quick_check',
  'foreign_key_check',
  'database_list',
  'compile_options',
  'page_count',
  'page_size',
  'encoding',
  'user_version',
  'application_id',
  'schema_version',
  'freelist_count',
  'journal_mode',
  'table_list',
  'function_list',
  'module_list',
  'pragma_list',
  'collation_list',
  'query_only',
  'foreign_keys',
  'data_version',
  'auto_vacuum',
  'max_page_count',
]);

const READ_PRAGMAS_WITH_ARG = new Set([
  'table_info',
  'table_xinfo',
  'index_list',
  'index_info',
  'index_xinfo',
  'foreign_key_list',
  'foreign_key_check',
  'integrity_check',
  'quick_check',
  'table_list',
]);

const WRITE_VERBS: Record<string, string> = {
  insert: 'INSERT changes data',
  update: 'UPDATE changes data',
  delete: 'DELETE changes data',
  replace: 'REPLACE changes data',
  upsert: 'UPSERT changes data',
  create: 'CREATE changes the schema',
  drop: 'DROP changes the schema',
  alter: 'ALTER changes the schema',
  attach: 'ATTACH opens another database file',
  detach: 'DETACH changes the attached databases',
  vacuum: 'VACUUM rewrites the database (VACUUM INTO writes a new file)',
  reindex: 'REINDEX rewrites indexes',
  analyze: 'ANALYZE writes statistics tables',
  begin: 'transactions are not needed for reading',
  commit: 'transactions are not needed for reading',
  end: 'transactions are not needed for reading',
  rollback: 'transactions are not needed for reading',
  savepoint: 'transactions are not needed for reading',
  release: 'transactions are not needed for reading',
};

/**
 * The first word is no SQLite statement at all (a typo such as `SELEC`): not a write, so not
 * refused as one. The engine lets SQLite compile it, which reports the syntax error itself.
 */
export class UnknownStatementError extends DowserError {
  constructor(
    readonly word: string,
    readonly statement: string,
  ) {
    super('sql_error', `"${word}" does not start an SQL statement (SELECT, WITH, VALUES, EXPLAIN or PRAGMA).`);
  }
}

function refuse(why: string): never {
  throw new DowserError(
    'read_only',
    `Only reading is allowed: ${why}. Dowser runs SELECT, WITH … SELECT, VALUES, EXPLAIN and read-only PRAGMA statements.`,
  );
}

/** Skip a balanced parenthesised group starting at tokens[i] === '('; returns the index after it. */
function skipParens(tokens: Token[], i: number): number {
  let depth = 0;
  for (; i < tokens.length; i++) {
    if (tokens[i].text === '(') depth++;
    else if (tokens[i].text === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return i;
}

/** The verb a WITH clause leads to: `WITH a AS (...), b(x) AS MATERIALIZED (...) SELECT` -> 'select'. */
function verbAfterWith(tokens: Token[]): string | null {
  let i = 1;
  if (tokens[i]?.text.toLowerCase() === 'recursive') i++;
  for (;;) {
    i++; // CTE name
    if (tokens[i]?.text === '(') i = skipParens(tokens, i);
    if (tokens[i]?.text.toLowerCase() !== 'as') return null;
    i++;
    if (tokens[i]?.text.toLowerCase() === 'not') i++;
    if (tokens[i]?.text.toLowerCase() === 'materialized') i++;
    if (tokens[i]?.text !== '(') return null;
    i = skipParens(tokens, i);
    if (tokens[i]?.text === ',') {
      i++;
      continue;
    }
    return tokens[i]?.kind === 'word' ? tokens[i].text.toLowerCase() : null;
  }
}

function checkPragma(tokens: Token[]): void {
  let i = 1;
  if (tokens[i + 1]?.text === '.') i += 2; // schema-qualified: PRAGMA main.table_info
  const name = tokens[i]?.text.toLowerCase() ?? '';
  const next = tokens[i + 1];
  if (!next) {
    if (READ_PRAGMAS_NO_ARG.has(name) || READ_PRAGMAS_WITH_ARG.has(name)) return;
    refuse(`PRAGMA ${name || '(none)'} is not on the list of read-only pragmas`);
  }
  if (next.text === '=') refuse(`PRAGMA ${name} = … changes a setting`);
  if (next.text === '(' && READ_PRAGMAS_WITH_ARG.has(name)) return;
  refuse(`PRAGMA ${name} with an argument can change a setting`);
}

/** `pragma_<name>`: SQLite's table-valued form of `PRAGMA <name>`. */
const PRAGMA_FUNCTION = /^pragma_(.+)$/i;

/**
 * `SELECT * FROM pragma_optimize(0x10002)` runs `PRAGMA optimize=…` when it is read, and its
 * bytecode shows only a virtual table: the keyword gate is the only one that can see the name.
 * So the table-valued form gets the same allow-list as the PRAGMA statement. Every spelling
 * counts (bare, "quoted", [bracketed], `backticked`, or 'as a string', which SQLite also takes
 * as a name in FROM), wherever it stands: telling a FROM position from a column apart would
 * leave gaps (IN pragma_x, schema.pragma_x, parenthesised joins), and a column named like a
 * write pragma is rare enough to be refused with this message.
 */
function checkPragmaFunctions(tokens: Token[]): void {
  for (const t of tokens) {
    if (t.kind !== 'word' && t.kind !== 'ident' && t.kind !== 'string') continue;
    const m = PRAGMA_FUNCTION.exec(t.kind === 'string' ? t.text.slice(1, -1).replaceAll("''", "'") : identName(t));
    if (!m) continue;
    const name = m[1].toLowerCase();
    if (READ_PRAGMAS_NO_ARG.has(name) || READ_PRAGMAS_WITH_ARG.has(name)) continue;
    refuse(`pragma_${name} runs PRAGMA ${name}, which is not on the list of read-only pragmas`);
  }
}

/** Throws unless the statement in `tokens` (significant tokens, at least one) only reads. */
function checkRead(tokens: Token[], statement: string): void {
  const verb = tokens[0].kind === 'word' ? tokens[0].text.toLowerCase() : '';
  switch (verb) {
    case 'select':
    case 'values':
      checkPragmaFunctions(tokens);
      return;
    case 'explain': {
      // EXPLAIN does not run its statement, but SQLite applies a PRAGMA's setting while compiling
      // it: `EXPLAIN PRAGMA query_only = 0` would switch the engine's last guard off. So the
      // explained statement passes the same gate (EXPLAIN of a write is of no use here anyway).
      const k = tokens[1]?.text.toLowerCase() === 'query' && tokens[2]?.text.toLowerCase() === 'plan' ? 3 : 1;
      if (tokens.length > k) checkRead(tokens.slice(k), statement);
      return; // a bare EXPLAIN is left to SQLite to report as a syntax error
    }
    case 'with': {
      const main = verbAfterWith(tokens);
      if (main === 'select' || main === 'values') return checkPragmaFunctions(tokens);
      if (main && WRITE_VERBS[main]) refuse(`WITH … ${main.toUpperCase()}: ${WRITE_VERBS[main]}`);
      refuse('this WITH clause does not lead to a SELECT');
      break;
    }
    case 'pragma':
      checkPragma(tokens);
      return;
    default:
      if (WRITE_VERBS[verb]) refuse(WRITE_VERBS[verb]);
      throw new UnknownStatementError(tokens[0].text.slice(0, 40), statement);
  }
}

/**
 * Throws unless `sql` holds exactly one statement that only reads. Returns that statement's text,
 * line ends normalised (see line-ends.ts): the text judged is the text that runs.
 * This is the gate that gives clear messages; the bytecode check in the engine is the backstop.
 */
export function assertSingleReadStatement(sql: string): string {
  const spans = splitStatements(normalizeLineEnds(sql));
  if (spans.length === 0)
    throw new DowserError('empty_statement', 'There is no SQL statement to run (only blanks or comments).');
  if (spans.length > 1) {
    // A write is named as such first: `CREATE TRIGGER … BEGIN …; END` is split at its inner `;`,
    // and "select the one to run" would be the wrong advice for it.
    checkRead(significant(tokenize(spans[0].text)), spans[0].text);
    throw new DowserError(
      'multiple_statements',
      `Only one statement runs at a time; found ${spans.length}. Select the one to run, or put the cursor in it.`,
    );
  }
  checkRead(significant(tokenize(spans[0].text)), spans[0].text);
  return spans[0].text;
}
