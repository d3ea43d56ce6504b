// The read-only gate for PostgreSQL: the first of three layers (the engine adds the second and
// third: the extended query protocol, which runs one statement only, and a READ ONLY transaction
// with time limits, rolled back). This layer gives the readable messages and stops what a read-only
// transaction would still allow: functions that read server files or act outside the transaction,
// SELECT … INTO, row locks, and relations that hold secrets or read configuration files.

import { DowserError } from '../../errors';
import { significant, type Token } from '../../sql/tokens';
import { ALLOWED_FUNCTIONS, REFUSED_RELATIONS, SYNTAX_BEFORE_PAREN } from './functions';
import { LexError, postgresName, tokenizePostgres } from './lexer';

export const POSTGRES_READ_STATEMENTS = 'SELECT, WITH … SELECT, VALUES, TABLE and EXPLAIN';

const WRITE_VERBS: Record<string, string> = {
  insert: 'INSERT adds rows',
  update: 'UPDATE changes rows',
  delete: 'DELETE removes rows',
  merge: 'MERGE changes rows',
  truncate: 'TRUNCATE empties tables',
  create: 'CREATE changes the schema',
  drop: 'DROP changes the schema',
  alter: 'ALTER changes the schema',
  comment: 'COMMENT ON changes the schema',
  grant: 'GRANT changes privileges',
  revoke: 'REVOKE changes privileges',
  copy: 'COPY reads or writes files and tables',
  do: 'DO runs a procedural block',
  call: 'CALL runs a procedure',
  set: 'SET changes a setting',
  reset: 'RESET changes a setting',
  listen: 'LISTEN waits for notifications',
  notify: 'NOTIFY sends a notification',
  unlisten: 'UNLISTEN changes notifications',
  lock: 'LOCK takes a table lock',
  vacuum: 'VACUUM rewrites tables',
  analyze: 'ANALYZE writes statistics',
  cluster: 'CLUSTER rewrites a table',
  reindex: 'REINDEX rewrites indexes',
  refresh: 'REFRESH MATERIALIZED VIEW rewrites a view',
  prepare: 'PREPARE keeps a statement in the session',
  execute: 'EXECUTE runs a prepared statement',
  deallocate: 'DEALLOCATE changes the session',
  declare: 'DECLARE opens a cursor that outlives the statement',
  fetch: 'FETCH reads from a cursor',
  move: 'MOVE moves a cursor',
  close: 'CLOSE closes a cursor',
  discard: 'DISCARD changes the session',
  load: 'LOAD loads a library into the server',
  import: 'IMPORT FOREIGN SCHEMA changes the schema',
  security: 'SECURITY LABEL changes the schema',
  reassign: 'REASSIGN OWNED changes ownership',
  checkpoint: 'CHECKPOINT writes to disk',
  begin: 'transactions are not needed for reading (each statement runs in its own read-only one)',
  start: 'transactions are not needed for reading (each statement runs in its own read-only one)',
  commit: 'transactions are not needed for reading',
  end: 'transactions are not needed for reading',
  rollback: 'transactions are not needed for reading',
  abort: 'transactions are not needed for reading',
  savepoint: 'transactions are not needed for reading',
  release: 'transactions are not needed for reading',
};

/** Words that start a data-changing statement inside parentheses (a data-modifying WITH). */
const WRITES_IN_PARENS = new Set(['insert', 'update', 'delete', 'merge']);

/** `FOR UPDATE`, `FOR NO KEY UPDATE`, `FOR SHARE`, `FOR KEY SHARE`: row locks. */
const LOCK_WORDS = new Set(['update', 'share', 'no', 'key']);

function refuse(why: string): never {
  throw new DowserError(
    'read_only',
    `Only reading is allowed: ${why}. Dowser runs ${POSTGRES_READ_STATEMENTS} statements.`,
  );
}

function wordOf(t: Token | undefined): string {
  return t && (t.kind === 'word' || t.kind === 'ident') ? postgresName(t) : '';
}

/**
 * Throws unless `sql` is one PostgreSQL statement that only reads; returns its text without the
 * trailing `;` (what the server is sent). Text the server could not read (an unterminated string)
 * is left to the server to report, after checking that no statement hides behind it.
 */
export function assertPostgresRead(sql: string): string {
  let tokens: Token[];
  try {
    tokens = tokenizePostgres(sql);
  } catch (e) {
    if (e instanceof LexError) throw new DowserError('sql_error', `The statement cannot be read: it has ${e.message}.`);
    throw e;
  }
  const statements = splitAtSemicolons(tokens);
  if (statements.length === 0)
    throw new DowserError('empty_statement', 'There is no SQL statement to run (only blanks or comments).');
  checkRead(statements[0]);
  if (statements.length > 1)
    throw new DowserError(
      'multiple_statements',
      `Only one statement runs at a time; found ${statements.length}. Select the one to run, or put the cursor in it.`,
    );
  const body = statements[0];
  return sql.slice(body[0].start, body[body.length - 1].end);
}

/** The significant tokens of each statement (split at `;` outside quotes), empty ones dropped. */
function splitAtSemicolons(tokens: Token[]): Token[][] {
  const out: Token[][] = [];
  let current: Token[] = [];
  for (const t of significant(tokens)) {
    if (t.kind === 'punct' && t.text === ';') {
      if (current.length) out.push(current);
      current = [];
    } else current.push(t);
  }
  if (current.length) out.push(current);
  return out;
}

function checkRead(tokens: Token[]): void {
  const verb = wordOf(tokens[0]);
  if (tokens[0].kind === 'punct' && tokens[0].text === '(') return checkBody(tokens);
  switch (verb) {
    case 'select':
    case 'values':
    case 'with':
    case 'table':
      return checkBody(tokens);
    case 'explain':
      return checkRead(explained(tokens));
    default:
      if (WRITE_VERBS[verb]) refuse(WRITE_VERBS[verb]);
      throw new DowserError(
        'sql_error',
        `"${tokens[0].text.slice(0, 40)}" does not start a statement Dowser runs (${POSTGRES_READ_STATEMENTS}).`,
      );
  }
}

/** The statement an EXPLAIN explains: after `EXPLAIN (options)` or `EXPLAIN ANALYZE VERBOSE`. */
function explained(tokens: Token[]): Token[] {
  let i = 1;
  if (tokens[i]?.text === '(') i = afterParens(tokens, i);
  else while (['analyze', 'analyse', 'verbose'].includes(wordOf(tokens[i]))) i++;
  if (i >= tokens.length) refuse('EXPLAIN needs the statement it explains');
  return tokens.slice(i);
}

function afterParens(tokens: Token[], i: number): number {
  let depth = 0;
  for (; i < tokens.length; i++) {
    if (tokens[i].text === '(') depth++;
    else if (tokens[i].text === ')' && --depth === 0) return i + 1;
  }
  return i;
}

/** Every call, relation, lock clause and INTO of a SELECT-like statement. */
function checkBody(tokens: Token[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'punct') {
      if (t.text === '(') {
        const inner = wordOf(tokens[i + 1]);
        if (tokens[i + 1]?.kind === 'word' && WRITES_IN_PARENS.has(inner))
          refuse(`${inner.toUpperCase()} inside a statement changes rows`);
      }
      continue;
    }
    if (t.kind !== 'word' && t.kind !== 'ident') continue;
    const name = postgresName(t);
    const next = tokens[i + 1];
    if (REFUSED_RELATIONS.has(name)) refuse(`${name} holds secrets, reads server files or shows other sessions`);
    // INTO has no use in a read: SELECT … INTO makes a table.
    if (t.kind === 'word' && name === 'into') refuse('SELECT … INTO makes a table');
    if (t.kind === 'word' && name === 'for' && LOCK_WORDS.has(wordOf(next)))
      refuse('FOR UPDATE and FOR SHARE lock rows');
    if (next?.kind === 'punct' && next.text === '(') checkCall(tokens, i);
  }
}

/**
 * `name (` is a call unless the grammar puts the word there (`IN (`, `CAST (`, `varchar(20)`) or
 * it is a column list after a name (`FROM t AS x(a, b)`, `FROM t x(a)`, `WITH c(a) AS`). A
 * schema-qualified call is allowed only from pg_catalog.
 */
function checkCall(tokens: Token[], i: number): void {
  const t = tokens[i];
  const name = postgresName(t);
  const before = tokens[i - 1];
  const qualified = before?.kind === 'punct' && before.text === '.';
  if (!qualified) {
    if (t.kind === 'word' && SYNTAX_BEFORE_PAREN.has(name)) return;
    if (isColumnListName(tokens, i)) return;
    if (ALLOWED_FUNCTIONS.has(name)) return;
  } else {
    const schema = wordOf(tokens[i - 2]);
    if (schema === 'pg_catalog' && ALLOWED_FUNCTIONS.has(name)) return;
    refuse(`${schema}.${name}(…) is not a built-in function Dowser allows`);
  }
  refuse(
    `${name}(…) is not on Dowser's list of functions that only compute (files, settings, locks and other servers stay out of reach)`,
  );
}

/**
 * A name followed by its column list rather than called: after AS (`AS x(a)`), after another
 * name (`FROM t x(a)`: a table and its alias), or a CTE's name (`WITH c(a) AS (`, `, d(b) AS (`).
 * The name before must be a plain identifier, not a keyword that a call could follow.
 */
function isColumnListName(tokens: Token[], i: number): boolean {
  const before = tokens[i - 1];
  if (!before) return false;
  if (before.kind === 'word' && postgresName(before) === 'as') return true;
  const close = afterParens(tokens, i + 1);
  const after = wordOf(tokens[close]);
  // WITH c(a) AS ( … ): the CTE's own column list
  if (after === 'as' && (wordOf(before) === 'with' || wordOf(before) === 'recursive' || before.text === ','))
    return tokens[close + 1]?.text === '(' || ['materialized', 'not'].includes(wordOf(tokens[close + 1]));
  if (before.kind === 'ident') return true;
  if (before.kind === 'word' && !SYNTAX_BEFORE_PAREN.has(postgresName(before)) && !KEYWORDS.has(postgresName(before)))
    return true;
  return false;
}

/** Keywords after which a call may stand (so the word before a `name(` that is one means a call). */
const KEYWORDS = new Set(
  (
    'select distinct all from where and or not in exists any some as on using join inner left right full outer ' +
    'cross natural lateral values row array over filter within group by partition order having union intersect ' +
    'except when then else end case is between like ilike similar escape with recursive materialized limit offset ' +
    'fetch returning into return asc desc nulls first last collate at zone only table'
  ).split(' '),
);
