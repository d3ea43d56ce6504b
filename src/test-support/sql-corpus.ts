// A seeded corpus for the read-only gate (issue 11, "fuzzing kept as tests"): write statements in
// every form SQLite accepts, disguised (case, whitespace and comments, quoting, a read in front,
// CTEs, RETURNING, pragma call syntax, …), and ordinary reads disguised the same way. Whether a
// candidate really writes is decided by SQLite itself on a scratch copy (writeOracle), so the
// corpus keeps only statements that change a database when run without the gates.

import { createHash } from 'node:crypto';
import type { Database, SqlJsStatic } from 'sql.js';
import { mulberry32 } from '../core/random';

/** The database every case runs against: two tables, a view, an index, a trigger-free schema. */
export const CORPUS_SCHEMA_SQL = `
CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT, c REAL);
CREATE TABLE u (x INTEGER, y TEXT REFERENCES t(b));
CREATE INDEX t_b ON t (b);
CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1;
INSERT INTO t VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, 'three', NULL);
INSERT INTO u VALUES (1, 'one'), (2, 'two'), (3, NULL);
`;

const WRITES = [
  'INSERT INTO t VALUES (10, $s, 0)',
  'INSERT INTO t (b) VALUES ($s)',
  'INSERT INTO t (b) SELECT b FROM t',
  'INSERT OR REPLACE INTO t VALUES (1, $s, 9)',
  'INSERT OR IGNORE INTO t (a, b) VALUES (99, $s)',
  'REPLACE INTO t VALUES (2, $s, 3)',
  'INSERT INTO t DEFAULT VALUES',
  'INSERT INTO t (a, b) VALUES (1, $s) ON CONFLICT (a) DO UPDATE SET b = excluded.b',
  'INSERT INTO t (b) VALUES ($s) RETURNING *',
  'INSERT INTO u SELECT a, b FROM t WHERE a < 3',
  'UPDATE t SET b = $s',
  'UPDATE t SET c = c + 1 WHERE a IN (SELECT x FROM u)',
  'UPDATE OR IGNORE t SET a = a + 100',
  'UPDATE t SET b = $s WHERE a = 1 RETURNING a, b',
  'UPDATE t SET b = u.y FROM u WHERE u.x = t.a',
  'UPDATE u SET y = NULL',
  'DELETE FROM t',
  'DELETE FROM t WHERE a = 1',
  'DELETE FROM u WHERE x > 0 RETURNING *',
  'DELETE FROM t WHERE a IN (SELECT x FROM u)',
  'WITH c AS (SELECT 1 AS k) DELETE FROM t WHERE a IN (SELECT k FROM c)',
  'WITH c(k) AS (VALUES (7)) INSERT INTO t (a, b) SELECT k, $s FROM c',
  'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) UPDATE t SET c = (SELECT max(n) FROM r)',
  'WITH c AS MATERIALIZED (SELECT a FROM t) DELETE FROM u WHERE x IN c',
  'CREATE TABLE z (q)',
  'CREATE TABLE IF NOT EXISTS z2 (q TEXT PRIMARY KEY) WITHOUT ROWID',
  'CREATE TABLE z3 AS SELECT * FROM t',
  'CREATE TEMP TABLE tz (q)',
  'CREATE TEMPORARY VIEW tv AS SELECT 1',
  'CREATE INDEX t_c ON t (c)',
  'CREATE UNIQUE INDEX IF NOT EXISTS u_x ON u (x)',
  'CREATE VIEW v2 AS SELECT * FROM u',
  'CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM u; END',
  'CREATE TRIGGER IF NOT EXISTS tr2 BEFORE UPDATE ON u BEGIN SELECT 1; END',
  'CREATE VIRTUAL TABLE f USING fts4 (body)',
  'DROP TABLE u',
  'DROP TABLE IF EXISTS t',
  'DROP VIEW v',
  'DROP INDEX t_b',
  'ALTER TABLE t RENAME TO t_old',
  'ALTER TABLE u ADD COLUMN z TEXT DEFAULT $s',
  'ALTER TABLE t RENAME COLUMN b TO bb',
  'ALTER TABLE u DROP COLUMN y',
  'PRAGMA user_version = 7',
  'PRAGMA main.user_version = 8',
  'PRAGMA user_version(9)',
  'PRAGMA application_id = 1234',
  'PRAGMA schema_version = 99',
  'PRAGMA query_only = 0',
  'PRAGMA query_only(false)',
  'PRAGMA journal_mode = OFF',
  'PRAGMA writable_schema = ON',
  'VACUUM',
  'VACUUM main',
  'REINDEX',
  'REINDEX t_b',
  'ANALYZE',
  'ANALYZE t',
  "ATTACH ':memory:' AS other",
  "ATTACH DATABASE '' AS scratch",
  'SAVEPOINT sp',
  'BEGIN; DELETE FROM t; COMMIT',
  'BEGIN IMMEDIATE',
];

const READS = [
  'SELECT * FROM t',
  'SELECT a, b FROM t WHERE a > 1 ORDER BY a DESC',
  'SELECT count(*) FROM t JOIN u ON u.y = t.b',
  'SELECT b, count(*) FROM t GROUP BY b HAVING count(*) > 0',
  'SELECT * FROM v',
  'WITH c AS (SELECT a FROM t) SELECT * FROM c',
  'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r',
  'SELECT a, row_number() OVER (ORDER BY a) FROM t',
  'SELECT * FROM t WHERE b IN (SELECT y FROM u)',
  'SELECT a FROM t UNION SELECT x FROM u',
  'SELECT a FROM t EXCEPT SELECT x FROM u',
  'VALUES (1, $s), (2, $s)',
  "SELECT 'DELETE FROM t; DROP TABLE u' AS text",
  'SELECT $s AS label, length($s)',
  "SELECT json_object('a', 1, 'b', $s)",
  'SELECT * FROM pragma_table_info($t)',
  'PRAGMA table_info(t)',
  'PRAGMA index_list(t)',
  'PRAGMA foreign_key_list(u)',
  'PRAGMA user_version',
  'EXPLAIN SELECT * FROM t',
  'EXPLAIN QUERY PLAN SELECT * FROM t WHERE a = 1',
  'SELECT typeof(c), coalesce(c, 0) FROM t',
  'SELECT group_concat(b, $s) FROM t',
  'SELECT max(a), min(a), avg(c) FROM t',
  'SELECT t.*, u.* FROM t LEFT JOIN u ON u.x = t.a',
  'SELECT CASE WHEN a > 1 THEN $s ELSE NULL END FROM t',
  'SELECT upper(b), substr(b, 1, 2) FROM t ORDER BY 1 LIMIT 2 OFFSET 1',
  "SELECT date('now') IS NOT NULL",
  'SELECT (SELECT count(*) FROM u) AS n',
];

const STRINGS = ["'x'", "'a;b'", "'--'", "'/*'", "'it''s'", "'DELETE FROM t'", "';DROP TABLE u;'", "'é€😀'"];

type Rand = () => number;
const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)];

const GAPS = [' ', '  ', '\t', '\n', '\r\n', '\f', '/**/', '/* gap */', '-- note\n', ' /* ; */ ', '\n-- ;\n'];
// Around one statement: whitespace and comments only.
const LEADS_ONE = ['', '\n', ' ', '/* SELECT */ ', '-- SELECT 1\n', '/* ; DELETE FROM t; */'];
const TAILS_ONE = ['', ';', ' ;', ' -- done', ' /* end */', ';\n', '; -- trailing'];
// Around a write: also empty statements and reads before or after it.
const LEADS = [
  ...LEADS_ONE,
  ';',
  ';;',
  'SELECT 1;',
  'VALUES (1);',
  'PRAGMA table_info(t);',
  "SELECT ';';",
  'SELECT * FROM t; ',
];
const TAILS = [...TAILS_ONE, '; SELECT 1', ';;'];
const NAMES: Record<string, string[]> = {
  t: ['t', '"t"', '[t]', '`t`', 'main.t', '"main"."t"', 'T'],
  u: ['u', '"u"', '[u]', '`u`', 'main.u', 'U'],
};

function mixCase(r: Rand, text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => (r() < 0.5 ? c.toLowerCase() : c.toUpperCase()));
}

/**
 * Disguises a statement: some of case, whitespace and comments, quoted names, and text before and
 * after it (`alone`: comments only; else also other statements).
 */
export function disguise(r: Rand, sql: string, alone = false): string {
  let out = sql.replace(/\$s/g, () => pick(r, STRINGS)).replace(/\$t/g, () => pick(r, ["'t'", "'u'"]));
  if (r() < 0.5) out = out.replace(/\b(t|u)\b(?=[ ;(),.]|$)/g, (m) => pick(r, NAMES[m]));
  if (r() < 0.6) out = out.replace(/ /g, () => (r() < 0.35 ? pick(r, GAPS) : ' '));
  if (r() < 0.5) out = out.replace(/\b[A-Z]{2,}\b/g, (w) => mixCase(r, w));
  return pick(r, alone ? LEADS_ONE : LEADS) + out + pick(r, alone ? TAILS_ONE : TAILS);
}

/** What running a statement may change: data, schema, settings, attachments, the temp schema. */
function cheapFingerprint(db: Database): string {
  const row = db.exec(
    `SELECT total_changes(), (SELECT schema_version FROM pragma_schema_version), (SELECT user_version FROM pragma_user_version),
       (SELECT application_id FROM pragma_application_id), (SELECT query_only FROM pragma_query_only),
       (SELECT journal_mode FROM pragma_journal_mode), (SELECT count(*) FROM pragma_database_list),
       (SELECT count(*) FROM sqlite_temp_schema), (SELECT group_concat(name || ':' || ifnull(sql, '')) FROM sqlite_schema)`,
  )[0].values[0];
  return JSON.stringify(row);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * SQLite's verdict, without any gate: run the text (every statement in it) on a scratch copy.
 * 'write' when the copy changed, 'read' when it ran and changed nothing, 'error' when it failed.
 */
export function writeOracle(SQL: SqlJsStatic, bytes: Uint8Array, sql: string): 'write' | 'read' | 'error' {
  const db = new SQL.Database(bytes);
  try {
    const before = cheapFingerprint(db);
    try {
      db.exec(sql);
    } catch {
      return 'error';
    }
    try {
      // The whole file only when nothing cheaper moved (most writes show in the fingerprint).
      return cheapFingerprint(db) === before && sha256(db.export()) === sha256(bytes) ? 'read' : 'write';
    } catch {
      return 'write'; // the change broke what the fingerprint reads (e.g. a dropped table)
    }
  } finally {
    db.close();
  }
}

export interface GateCorpus {
  writes: string[];
  reads: string[];
  /** Candidates generated, and why the rest were dropped. */
  tried: number;
  droppedAsRead: number;
  droppedAsError: number;
}

/** At least `writes` disguised statements SQLite confirms as writes, and `reads` confirmed reads. */
export function gateCorpus(
  SQL: SqlJsStatic,
  bytes: Uint8Array,
  wanted: { writes: number; reads: number },
  seed = 11,
): GateCorpus {
  const r = mulberry32(seed);
  const writes = new Set<string>();
  const reads = new Set<string>();
  let tried = 0;
  let droppedAsRead = 0;
  let droppedAsError = 0;
  // Every base form undisguised first, then disguised ones.
  const candidates = function* () {
    for (const w of WRITES) yield { sql: w.replace(/\$s/g, "'x'"), want: 'write' as const };
    for (const q of READS) yield { sql: q.replace(/\$s/g, "'x'").replace(/\$t/g, "'t'"), want: 'read' as const };
    for (;;) {
      const wantWrite = writes.size < wanted.writes && (reads.size >= wanted.reads || r() < 0.9);
      yield wantWrite
        ? { sql: disguise(r, pick(r, WRITES)), want: 'write' as const }
        : { sql: disguise(r, pick(r, READS), true), want: 'read' as const };
    }
  };
  for (const c of candidates()) {
    if (writes.size >= wanted.writes && reads.size >= wanted.reads) break;
    if (writes.has(c.sql) || reads.has(c.sql)) continue;
    tried++;
    const verdict = writeOracle(SQL, bytes, c.sql);
    if (verdict === 'write' && c.want === 'write') writes.add(c.sql);
    else if (verdict === 'read' && c.want === 'read') reads.add(c.sql);
    else if (verdict === 'error') droppedAsError++;
    else droppedAsRead++;
    if (tried > 50 * (wanted.writes + wanted.reads))
      throw new Error('the generator cannot reach the wanted corpus size');
  }
  return { writes: [...writes], reads: [...reads], tried, droppedAsRead, droppedAsError };
}
