/**
 * Generates small SQLite (and deliberately not-quite-SQLite) fixture files for unit and
 * e2e tests. Files are written to src/test-fixtures/ and copied byte-for-byte to
 * e2e/fixtures/.
 *
 * Run with `npx tsx scripts/make-fixtures.ts`. Output is deterministic: no clock reads
 * (every DEFAULT CURRENT_TIMESTAMP column is given an explicit value), and the only
 * randomness is a seeded mulberry32 stream.
 *
 * Every file is reopened with sql.js after it is written and the script fails if a
 * fixture does not behave as its description says (e.g. corrupt.sqlite passing
 * quick_check), so the descriptions printed at the end are verified facts.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs, { type Database, type SqlJsStatic, type SqlValue } from 'sql.js';
import { mulberry32 } from '../src/core/random';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PRIMARY_DIR = resolve(ROOT, 'src/test-fixtures');
const COPY_DIRS = [resolve(ROOT, 'e2e/fixtures')];
const MAX_FIXTURE_BYTES = 100 * 1024;
const SQLITE_MAGIC = 'SQLite format 3\0';

const rand = mulberry32(0xd0a5e5);
const randomBytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

interface Fixture {
  file: string;
  description: string;
  bytes: Uint8Array;
  /** Reopens the bytes and returns a short human-readable result; throws if the fixture is wrong. */
  verify: (SQL: SqlJsStatic, bytes: Uint8Array) => string;
}

/** Runs SQL and returns the first result set's rows ([] when the statement returns nothing). */
function rows(db: Database, sql: string): SqlValue[][] {
  const result = db.exec(sql);
  return result.length === 0 ? [] : result[0].values;
}

function scalar(db: Database, sql: string): SqlValue {
  const r = rows(db, sql);
  if (r.length === 0) throw new Error(`no rows from: ${sql}`);
  return r[0][0];
}

/** Runs a statement expecting it to fail, and returns the error message. */
function expectError(db: Database, sql: string, pattern: RegExp): string {
  try {
    db.exec(sql);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (!pattern.test(message))
      throw new Error(`"${sql}" failed with "${message}", expected ${String(pattern)}`, { cause: e });
    return message;
  }
  throw new Error(`"${sql}" unexpectedly succeeded`);
}

/**
 * PRAGMA quick_check on a damaged file either returns problem rows or, when the damage
 * is bad enough (e.g. missing pages), throws "database disk image is malformed" itself.
 */
function quickCheck(db: Database): string {
  try {
    const problems = rows(db, 'PRAGMA quick_check').map((r) => String(r[0]));
    if (problems.length === 1 && problems[0] === 'ok') return 'ok';
    // SQLite packs many findings into one multi-line row; the first two lines are enough here.
    const lines = problems.join('\n').split('\n');
    return `reports ${lines.length} line(s): "${lines.slice(0, 2).join(' / ')}" ...`;
  } catch (e) {
    return `threw "${e instanceof Error ? e.message : String(e)}"`;
  }
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function withDb<T>(SQL: SqlJsStatic, bytes: Uint8Array, fn: (db: Database) => T): T {
  const db = new SQL.Database(bytes);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Builds an in-memory database, VACUUMs it so page layout is compact and stable, and exports it. */
function build(SQL: SqlJsStatic, fn: (db: Database) => void): Uint8Array {
  const db = new SQL.Database();
  try {
    fn(db);
    const fk = rows(db, 'PRAGMA foreign_key_check');
    assert(fk.length === 0, `foreign_key_check failed: ${JSON.stringify(fk)}`);
    db.run('VACUUM');
    return db.export();
  } finally {
    db.close();
  }
}

function insertRows(db: Database, sql: string, data: readonly SqlValue[][]): void {
  const stmt = db.prepare(sql);
  try {
    for (const row of data) stmt.run(row);
  } finally {
    stmt.free();
  }
}

const headerText = (bytes: Uint8Array): string => Buffer.from(bytes.subarray(0, 16)).toString('latin1');
const pageSizeOf = (bytes: Uint8Array): number => {
  const raw = (bytes[16] << 8) | bytes[17];
  return raw === 1 ? 65536 : raw;
};
const pageCountOf = (bytes: Uint8Array): number => bytes.length / pageSizeOf(bytes);

// ---------------------------------------------------------------------------
// tricky.sqlite
// ---------------------------------------------------------------------------

const TRICKY_SCHEMA = `
-- Mixed-case identifiers, DEFAULTs and NOT NULL.
CREATE TABLE "MixedCase" (
  "Id"          INTEGER PRIMARY KEY,
  "DisplayName" VARCHAR(20) NOT NULL DEFAULT 'unnamed',
  "isActive"    BOOLEAN NOT NULL DEFAULT 1,
  "createdAt"   DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "Score"       DOUBLE DEFAULT -1.5,
  "Ratio"       REAL DEFAULT (1.0 / 3),
  "lower"       text
);

-- One column per declared type. Affinity follows SQLite's substring rules, including the
-- classic surprises: STRING has NUMERIC affinity, FLOATING POINT has INTEGER affinity
-- (it contains "INT"), and a column with no type at all has BLOB affinity.
CREATE TABLE type_zoo (
  id                   INTEGER PRIMARY KEY,
  c_int                INT,
  c_bigint             BIGINT,
  c_unsigned_big_int   UNSIGNED BIG INT,
  c_text               TEXT,
  c_varchar            VARCHAR(20),
  c_nchar              NCHAR(55),
  c_clob               CLOB,
  c_blob               BLOB,
  c_untyped,
  c_real               REAL,
  c_double             DOUBLE,
  c_double_precision   DOUBLE PRECISION,
  c_float              FLOAT,
  c_numeric            NUMERIC,
  c_decimal            DECIMAL(10,2),
  c_boolean            BOOLEAN,
  c_date               DATE,
  c_datetime           DATETIME,
  c_string             STRING,
  c_floating_point     FLOATING POINT
);

-- SQL keywords as table and column names.
CREATE TABLE "select" (
  "order"  INTEGER PRIMARY KEY,
  "from"   TEXT NOT NULL,
  "where"  DATETIME,
  "group"  TEXT DEFAULT 'none'
);

-- WITHOUT ROWID, keyword names, FK to another keyword table.
CREATE TABLE "group" (
  "by"      TEXT NOT NULL PRIMARY KEY,
  "having"  INTEGER,
  "order"   INTEGER REFERENCES "select" ("order")
) WITHOUT ROWID;

-- Spaces in identifiers and a composite primary key.
CREATE TABLE "order details" (
  "order id"    INTEGER NOT NULL REFERENCES "select" ("order") ON DELETE CASCADE,
  "line no"     INTEGER NOT NULL,
  "unit price"  DECIMAL(10,2) NOT NULL DEFAULT 0.00,
  "qty"         INT NOT NULL DEFAULT 1 CHECK ("qty" > 0),
  PRIMARY KEY ("order id", "line no")
);

-- Multi-column foreign key onto the composite key above.
CREATE TABLE shipments (
  shipment_id  INTEGER PRIMARY KEY,
  order_id     INTEGER NOT NULL,
  line_no      INTEGER NOT NULL,
  shipped_on   DATE,
  carrier      TEXT DEFAULT 'UPS',
  FOREIGN KEY (order_id, line_no) REFERENCES "order details" ("order id", "line no")
);

-- Foreign keys in both directions (departments <-> staff) plus a self-reference.
CREATE TABLE departments (
  id             INTEGER PRIMARY KEY,
  name           TEXT NOT NULL UNIQUE,
  head_staff_id  INTEGER REFERENCES staff (id)
);
CREATE TABLE staff (
  id             INTEGER PRIMARY KEY,
  name           TEXT NOT NULL,
  department_id  INTEGER NOT NULL REFERENCES departments (id),
  mentor_id      INTEGER REFERENCES staff (id),
  active         INTEGER NOT NULL DEFAULT 1
);

-- Embedded double quote in the table name; quote, semicolon, dot, brackets, backtick and
-- apostrophe in column names.
CREATE TABLE "we""ird" (
  "id"          INTEGER PRIMARY KEY,
  "col""quote"  TEXT,
  "semi;colon"  TEXT,
  "dot.ted"     INTEGER,
  "[bracket]"   TEXT,
  "back\`tick"   TEXT,
  "it's"        TEXT
);

-- Unicode identifiers.
CREATE TABLE "café" (
  "id"      INTEGER PRIMARY KEY,
  "crème"   TEXT NOT NULL,
  "prix €"  REAL,
  "日本"    TEXT
);
CREATE TABLE "日本" (
  "都市"  TEXT NOT NULL,
  "区"    TEXT NOT NULL,
  "人口"  INTEGER,
  PRIMARY KEY ("都市", "区")
) WITHOUT ROWID;

-- BLOBs: binary, empty, text-looking, NULL.
CREATE TABLE attachments (
  id          INTEGER PRIMARY KEY,
  staff_id    INTEGER REFERENCES staff (id),
  filename    TEXT NOT NULL,
  mime        TEXT,
  data        BLOB,
  size_bytes  INTEGER
);

-- STRICT table with generated columns (hidden from PRAGMA table_info, visible in table_xinfo).
CREATE TABLE measurements (
  id      INTEGER PRIMARY KEY,
  width   REAL NOT NULL,
  height  REAL NOT NULL,
  area    REAL GENERATED ALWAYS AS (width * height) STORED,
  label   ANY,
  shape   TEXT GENERATED ALWAYS AS (CASE WHEN width = height THEN 'square' ELSE 'rectangle' END) VIRTUAL
) STRICT;

-- Intentionally empty. AUTOINCREMENT also creates the internal sqlite_sequence table.
CREATE TABLE audit_log (
  id       INTEGER PRIMARY KEY AUTOINCREMENT,
  at       DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  message  TEXT NOT NULL
);

CREATE INDEX idx_staff_department ON staff (department_id);
CREATE INDEX "idx staff active name" ON staff (name) WHERE active = 1;
CREATE UNIQUE INDEX "uq café crème" ON "café" ("crème");
CREATE INDEX idx_mixedcase_lower_name ON "MixedCase" (lower("DisplayName"));
CREATE INDEX "idx order details price" ON "order details" ("unit price" DESC, "qty");

CREATE VIEW "staff directory" AS
SELECT s.id, s.name AS "staff name", d.name AS "department", m.name AS mentor
FROM staff AS s
JOIN departments AS d ON d.id = s.department_id
LEFT JOIN staff AS m ON m.id = s.mentor_id;

CREATE VIEW "select summary" AS
SELECT sel."order", sel."from", COUNT(od."line no") AS lines, SUM(od."unit price" * od."qty") AS total
FROM "select" AS sel
LEFT JOIN "order details" AS od ON od."order id" = sel."order"
GROUP BY sel."order";
`;

/** Created after the data so it never fires during generation (it would write a timestamp). */
const TRICKY_TRIGGER = `
CREATE TRIGGER "trg select audit" AFTER INSERT ON "select"
BEGIN
  INSERT INTO audit_log (message) VALUES ('inserted order ' || NEW."order");
END;
`;

/** A real 1x1 transparent PNG. */
const PNG_1X1 = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
);

function makeTricky(SQL: SqlJsStatic): Uint8Array {
  return build(SQL, (db) => {
    // Every table and index needs at least one page; 1 KiB pages keep the file small and
    // also give the app a non-default page size to cope with.
    db.run('PRAGMA page_size = 1024');
    db.run('PRAGMA foreign_keys = ON');
    db.run(TRICKY_SCHEMA);
    db.run('BEGIN');
    insertRows(
      db,
      'INSERT INTO "MixedCase" ("Id", "DisplayName", "isActive", "createdAt", "Score", "lower") VALUES (?, ?, ?, ?, ?, ?)',
      [
        [1, 'Alpha', 1, '2024-01-15 09:30:00', 9.5, 'a'],
        [2, 'beta', 0, '2024-02-29 23:59:59', null, null],
        [3, 'GAMMA', 1, '2024-12-31 00:00:00', -1.5, 'c'],
      ],
    );
    // Row 4 relies on the constant defaults for DisplayName, isActive, Score and Ratio.
    db.run(`INSERT INTO "MixedCase" ("Id", "createdAt") VALUES (4, '2025-01-01 12:00:00')`);

    insertRows(db, `INSERT INTO type_zoo VALUES (${Array.from({ length: 21 }, () => '?').join(', ')})`, [
      [
        1,
        42,
        null,
        18446744073709,
        'hello',
        'short',
        'nchar',
        'clob text',
        Uint8Array.from([0, 1, 2, 255]),
        'untyped text',
        3.14,
        2.718281828459045,
        1.5,
        0.1,
        10,
        1234.5,
        1,
        '2024-06-30',
        '2024-06-30 13:45:00',
        '0042',
        2.5,
      ],
      [
        2,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ],
      // Values that do not match their column's affinity are stored as-is (TEXT in INT, etc.).
      [
        3,
        'not a number',
        null,
        -1,
        12345,
        '',
        '',
        '',
        'text in a blob column',
        7,
        'NaN?',
        -0.0,
        1e308,
        -1e-308,
        '12.50',
        '99.999',
        'true',
        'yesterday',
        1719755100,
        'abc',
        '3.9',
      ],
      [
        4,
        -2147483648,
        -9007199254740991,
        0,
        'line one\nline two',
        'tab\tseparated',
        'x'.repeat(55),
        'é ü ñ 日本 🎉',
        new Uint8Array(0),
        null,
        0,
        1e-7,
        123456789.123,
        100,
        '1e3',
        0.005,
        0,
        '2024-02-29',
        '2024-02-29T12:00:00Z',
        '',
        7,
      ],
    ]);
    // Integers beyond Number.MAX_SAFE_INTEGER must be written as SQL literals: a JS number
    // would already have lost precision. Readers using plain numbers will see them rounded.
    db.run('UPDATE type_zoo SET c_bigint = 9007199254740993 WHERE id = 1');
    db.run('UPDATE type_zoo SET c_bigint = 9223372036854775807 WHERE id = 3');

    insertRows(db, 'INSERT INTO "select" ("order", "from", "where", "group") VALUES (?, ?, ?, ?)', [
      [1, 'warehouse', '2024-03-01 08:00:00', 'north'],
      [2, 'store', null, 'south'],
      [3, 'web', '2024-03-03 17:20:00', 'none'],
    ]);
    insertRows(db, 'INSERT INTO "group" ("by", "having", "order") VALUES (?, ?, ?)', [
      ['region', 2, 1],
      ['channel', null, 2],
      ['zzz last', 0, null],
    ]);
    insertRows(db, 'INSERT INTO "order details" ("order id", "line no", "unit price", "qty") VALUES (?, ?, ?, ?)', [
      [1, 1, 19.99, 2],
      [1, 2, 5, 1],
      [2, 1, 120.5, 3],
    ]);
    db.run(`INSERT INTO "order details" ("order id", "line no") VALUES (3, 1)`); // defaults for price and qty
    insertRows(
      db,
      'INSERT INTO shipments (shipment_id, order_id, line_no, shipped_on, carrier) VALUES (?, ?, ?, ?, ?)',
      [
        [1, 1, 1, '2024-03-02', 'DHL'],
        [2, 1, 2, null, null],
        [3, 2, 1, '2024-03-05', 'UPS'],
      ],
    );

    // The cycle means one side must be inserted first with a NULL reference and fixed up after.
    insertRows(db, 'INSERT INTO departments (id, name, head_staff_id) VALUES (?, ?, NULL)', [
      [1, 'Engineering'],
      [2, 'Sales'],
      [3, 'Empty Department'],
    ]);
    insertRows(db, 'INSERT INTO staff (id, name, department_id, mentor_id, active) VALUES (?, ?, ?, ?, ?)', [
      [1, 'Grace Hopper', 1, null, 1],
      [2, 'Alan Turing', 1, 1, 1],
      [3, 'Joan Clarke', 1, 2, 0],
      [4, 'Dale Carnegie', 2, null, 1],
    ]);
    db.run('UPDATE departments SET head_staff_id = 1 WHERE id = 1');
    db.run('UPDATE departments SET head_staff_id = 4 WHERE id = 2');

    insertRows(db, 'INSERT INTO "we""ird" VALUES (?, ?, ?, ?, ?, ?, ?)', [
      [1, 'say "hi"', 'a;b', 1, '[x]', '`y`', "it's"],
      [2, null, 'DROP TABLE staff; --', null, null, null, null],
    ]);
    insertRows(db, 'INSERT INTO "café" ("id", "crème", "prix €", "日本") VALUES (?, ?, ?, ?)', [
      [1, 'brûlée', 7.5, '東京'],
      [2, 'fraîche', null, null],
      [3, 'pâtissière', 4.25, 'こんにちは'],
    ]);
    insertRows(db, 'INSERT INTO "日本" ("都市", "区", "人口") VALUES (?, ?, ?)', [
      ['東京', '新宿', 349385],
      ['東京', '渋谷', 243883],
      ['大阪', '北区', null],
    ]);
    const noise = randomBytes(300);
    insertRows(
      db,
      'INSERT INTO attachments (id, staff_id, filename, mime, data, size_bytes) VALUES (?, ?, ?, ?, ?, ?)',
      [
        [1, 1, 'pixel.png', 'image/png', PNG_1X1, PNG_1X1.length],
        [2, 2, 'empty.bin', 'application/octet-stream', new Uint8Array(0), 0],
        [3, 2, 'hello.txt', 'text/plain', new TextEncoder().encode('hello, world\n'), 13],
        [4, null, 'noise.bin', null, noise, noise.length],
        [5, 3, 'missing.pdf', 'application/pdf', null, null],
      ],
    );
    insertRows(db, 'INSERT INTO measurements (id, width, height, label) VALUES (?, ?, ?, ?)', [
      [1, 2, 3, 'text label'],
      [2, 4, 4, 42],
      [3, 0.5, 1.25, null],
    ]);
    db.run('COMMIT');
    db.run(TRICKY_TRIGGER);
  });
}

function verifyTricky(SQL: SqlJsStatic, bytes: Uint8Array): string {
  return withDb(SQL, bytes, (db) => {
    assert(scalar(db, 'PRAGMA integrity_check') === 'ok', 'tricky: integrity_check');
    const objects = rows(
      db,
      "SELECT type, COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' GROUP BY type ORDER BY type",
    );
    assert(scalar(db, 'SELECT COUNT(*) FROM audit_log') === 0, 'tricky: audit_log must be empty');
    assert(scalar(db, 'SELECT "from" FROM "select" WHERE "order" = 2') === 'store', 'tricky: keyword table');
    assert(scalar(db, 'SELECT "col""quote" FROM "we""ird" WHERE id = 1') === 'say "hi"', 'tricky: quoted identifiers');
    assert(scalar(db, 'SELECT COUNT(*) FROM "日本"') === 3, 'tricky: unicode table');
    assert(scalar(db, 'SELECT area FROM measurements WHERE id = 1') === 6, 'tricky: generated column');
    assert(rows(db, 'PRAGMA foreign_key_list(shipments)').length === 2, 'tricky: multi-column FK has two rows');
    // Affinity surprises, checked so the comments in the schema stay true.
    const types = rows(
      db,
      'SELECT typeof(c_string), typeof(c_floating_point), typeof(c_untyped), typeof(c_bigint) FROM type_zoo WHERE id = 1',
    )[0];
    assert(types.join() === 'integer,real,text,integer', `tricky: type_zoo affinities ${types.join()}`);
    assert(
      scalar(db, 'SELECT CAST(c_bigint AS TEXT) FROM type_zoo WHERE id = 3') === '9223372036854775807',
      'tricky: int64 max',
    );
    return (
      `page_size=${String(scalar(db, 'PRAGMA page_size'))}; ` +
      objects.map(([type, n]) => `${String(type)}: ${String(n)}`).join(', ')
    );
  });
}

// ---------------------------------------------------------------------------
// tiny.sqlite
// ---------------------------------------------------------------------------

function makeTiny(SQL: SqlJsStatic): Uint8Array {
  return build(SQL, (db) => {
    db.run('PRAGMA foreign_keys = ON');
    db.run(`
      CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
      CREATE TABLE pets (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES people (id), name TEXT, species TEXT);
    `);
    insertRows(db, 'INSERT INTO people (id, name, city) VALUES (?, ?, ?)', [
      [1, 'Ada Lovelace', 'London'],
      [2, 'Smith, John', 'New York'],
      [3, 'Dwayne "The Rock" Johnson', 'Miami'],
      [4, 'Mary\nAnn', 'Paris'],
      [5, '<b>bold</b>', null],
    ]);
    insertRows(db, 'INSERT INTO pets (id, owner_id, name, species) VALUES (?, ?, ?, ?)', [
      [1, 1, 'Rex', 'dog'],
      [2, 1, 'Whiskers', 'cat'],
      [3, 2, 'Goldie', 'fish'],
      [4, 3, 'Polly', 'parrot'],
      [5, 5, 'Spot', 'dog'],
      [6, 5, 'Shadow', 'cat'],
    ]);
  });
}

function verifyTiny(SQL: SqlJsStatic, bytes: Uint8Array): string {
  return withDb(SQL, bytes, (db) => {
    assert(scalar(db, 'SELECT COUNT(*) FROM people') === 5, 'tiny: people');
    assert(scalar(db, 'SELECT COUNT(*) FROM pets') === 6, 'tiny: pets');
    assert(scalar(db, 'SELECT name FROM people WHERE id = 4') === 'Mary\nAnn', 'tiny: newline name');
    return `people=5 pets=6; person 4 has no pets, person 5 has NULL city`;
  });
}

// ---------------------------------------------------------------------------
// Simple valid / invalid files
// ---------------------------------------------------------------------------

function makeNoTables(SQL: SqlJsStatic): Uint8Array {
  return build(SQL, (db) => db.run('PRAGMA user_version = 7'));
}

function verifyNoTables(SQL: SqlJsStatic, bytes: Uint8Array): string {
  assert(headerText(bytes) === SQLITE_MAGIC, 'no-tables: header');
  return withDb(SQL, bytes, (db) => {
    assert(scalar(db, 'SELECT COUNT(*) FROM sqlite_master') === 0, 'no-tables: has objects');
    assert(scalar(db, 'PRAGMA user_version') === 7, 'no-tables: user_version');
    return 'valid header, sqlite_master empty, user_version=7';
  });
}

const NOT_SQLITE_TEXT =
  'id,name,email\n1,Ada,ada@example.com\n2,Grace,grace@example.com\n3,"Smith, John",john@example.com\n';

function verifyNotSqlite(SQL: SqlJsStatic, bytes: Uint8Array): string {
  return withDb(SQL, bytes, (db) => expectError(db, 'SELECT * FROM sqlite_master', /file is not a database/));
}

function verifyEmpty(SQL: SqlJsStatic, bytes: Uint8Array): string {
  assert(bytes.length === 0, 'empty: must be zero bytes');
  // Surprising but true: SQLite treats a zero-length file as a brand-new empty database,
  // so the app has to reject empty files itself if it wants to show an error.
  return withDb(
    SQL,
    bytes,
    (db) => `opens as a NEW empty db (sqlite_master rows: ${String(scalar(db, 'SELECT COUNT(*) FROM sqlite_master'))})`,
  );
}

/** A multi-page database (page size 4096) with one table big enough for an interior b-tree page. */
function makeMultiPage(SQL: SqlJsStatic): Uint8Array {
  return build(SQL, (db) => {
    db.run('PRAGMA page_size = 4096');
    db.run(
      'CREATE TABLE readings (id INTEGER PRIMARY KEY, sensor TEXT NOT NULL, taken_at TEXT NOT NULL, value REAL, note TEXT)',
    );
    db.run('CREATE INDEX idx_readings_sensor ON readings (sensor)');
    const data: SqlValue[][] = [];
    for (let i = 1; i <= 600; i++) {
      const minutes = i * 7;
      const takenAt = `2024-01-${String(1 + Math.floor(minutes / 1440)).padStart(2, '0')} ${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
      data.push([
        i,
        `sensor-${1 + (i % 5)}`,
        takenAt,
        Math.round(rand() * 10000) / 100,
        `reading number ${i} `.repeat(2),
      ]);
    }
    db.run('BEGIN');
    insertRows(db, 'INSERT INTO readings VALUES (?, ?, ?, ?, ?)', data);
    db.run('COMMIT');
  });
}

function makeTruncated(valid: Uint8Array): Uint8Array {
  const pageSize = pageSizeOf(valid);
  const pages = pageCountOf(valid);
  assert(pages >= 8, `multi-page db has only ${pages} pages`);
  // Half the pages plus a ragged tail, as a download cut off mid-transfer would leave it.
  return valid.slice(0, Math.floor(pages / 2) * pageSize + 100);
}

function verifyTruncated(SQL: SqlJsStatic, bytes: Uint8Array): string {
  assert(headerText(bytes) === SQLITE_MAGIC, 'truncated: header must be intact');
  return withDb(SQL, bytes, (db) => {
    // Opening succeeds, but even reading the schema on page 1 fails: SQLite compares the
    // page count in the header with the file size and reports corruption straight away.
    const err = expectError(db, 'SELECT name FROM sqlite_master', /malformed/);
    const check = quickCheck(db);
    assert(check !== 'ok', 'truncated: quick_check unexpectedly ok');
    return `header ok; any query incl. sqlite_master: "${err}"; quick_check ${check}`;
  });
}

function makeCorrupt(valid: Uint8Array): Uint8Array {
  const pageSize = pageSizeOf(valid);
  const pages = pageCountOf(valid);
  const out = valid.slice();
  // Smash the cell pointer array of a leaf page in the middle of the file (page header is
  // 8 bytes on leaves), so every cell offset on that page points somewhere wrong.
  const page = Math.floor(pages / 2); // 0-based page index; page 0 (the header page) is never chosen
  const start = page * pageSize + 8;
  out.set(randomBytes(96), start);
  return out;
}

function verifyCorrupt(SQL: SqlJsStatic, bytes: Uint8Array): string {
  assert(headerText(bytes) === SQLITE_MAGIC, 'corrupt: header must be intact');
  return withDb(SQL, bytes, (db) => {
    const check = quickCheck(db);
    assert(check !== 'ok', 'corrupt: quick_check unexpectedly ok');
    let scan: string;
    try {
      scan = `scan ok (${String(scalar(db, 'SELECT SUM(length(note)) FROM readings'))})`;
    } catch (e) {
      scan = `scan error "${e instanceof Error ? e.message : String(e)}"`;
    }
    return `quick_check ${check}; ${scan}`;
  });
}

function verifyEncrypted(SQL: SqlJsStatic, bytes: Uint8Array): string {
  assert(headerText(bytes) !== SQLITE_MAGIC, 'encrypted: must not have a SQLite header');
  return withDb(SQL, bytes, (db) => expectError(db, 'SELECT * FROM sqlite_master', /file is not a database/));
}

function makeWal(SQL: SqlJsStatic): Uint8Array {
  const bytes = build(SQL, (db) => {
    db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT)');
    db.run("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
  });
  // File format read/write versions: 1 = rollback journal, 2 = WAL.
  bytes[18] = 2;
  bytes[19] = 2;
  return bytes;
}

function verifyWal(SQL: SqlJsStatic, bytes: Uint8Array): string {
  assert(bytes[18] === 2 && bytes[19] === 2, 'wal: header bytes 18/19');
  return withDb(SQL, bytes, (db) => {
    const mode = String(scalar(db, 'PRAGMA journal_mode'));
    const count = scalar(db, 'SELECT COUNT(*) FROM t');
    return `bytes 18/19 = 2; sql.js opens it: journal_mode=${mode}, rows=${String(count)}`;
  });
}

// ---------------------------------------------------------------------------
// virtual-table.sqlite
// ---------------------------------------------------------------------------

/** Returns the first full-text module this sql.js build supports (1.16.0 has fts3/fts4, not fts5). */
function pickFtsModule(db: Database): string {
  for (const module of ['fts5', 'fts4', 'fts3']) {
    try {
      db.run(`CREATE VIRTUAL TABLE temp.probe_${module} USING ${module}(x)`);
      db.run(`DROP TABLE temp.probe_${module}`);
      return module;
    } catch {
      // not compiled in; try the next one
    }
  }
  throw new Error('sql.js has no full-text search module');
}

function makeVirtualTable(SQL: SqlJsStatic): { bytes: Uint8Array; ftsModule: string } {
  let ftsModule = '';
  const bytes = build(SQL, (db) => {
    ftsModule = pickFtsModule(db);
    db.run('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    insertRows(db, 'INSERT INTO notes (id, body) VALUES (?, ?)', [
      [1, 'Pack the tent and the stove'],
      [2, 'Buy fuel canisters before the trip'],
      [3, 'The stove needs a new o-ring'],
    ]);
    db.run(`CREATE VIRTUAL TABLE notes_fts USING ${ftsModule}(body)`);
    db.run('INSERT INTO notes_fts (rowid, body) SELECT id, body FROM notes');
    // sql.js lacks vec0 (sqlite-vec), so this table cannot be created normally. Writing the
    // schema row directly gives a file that opens fine but fails on use, exactly like a
    // database produced by an app that loaded an extension we do not have.
    db.run('PRAGMA writable_schema = ON');
    db.run(
      "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES ('table', 'vectors', 'vectors', 0, 'CREATE VIRTUAL TABLE vectors USING vec0(embedding float[4])')",
    );
    db.run('PRAGMA writable_schema = OFF');
  });
  return { bytes, ftsModule };
}

function verifyVirtualTable(SQL: SqlJsStatic, bytes: Uint8Array, ftsModule: string): string {
  return withDb(SQL, bytes, (db) => {
    assert(scalar(db, 'SELECT COUNT(*) FROM notes') === 3, 'virtual-table: notes');
    const hits = rows(db, "SELECT rowid FROM notes_fts WHERE notes_fts MATCH 'stove' ORDER BY rowid").map((r) =>
      Number(r[0]),
    );
    assert(hits.join() === '1,3', `virtual-table: fts MATCH returned ${hits.join()}`);
    const err = expectError(db, 'SELECT * FROM vectors', /no such module: vec0/);
    // Introspection of the broken table fails too, which the schema browser must survive.
    const pragmaErr = expectError(db, 'PRAGMA table_info(vectors)', /no such module: vec0/);
    assert(scalar(db, 'PRAGMA quick_check') === 'ok', 'virtual-table: quick_check');
    const shadow = rows(db, "SELECT name FROM sqlite_master WHERE name LIKE 'notes_fts_%' ORDER BY name").length;
    return `notes ok; notes_fts (${ftsModule}, ${shadow} shadow tables) MATCH ok; vectors: "${err}"; table_info(vectors): "${pragmaErr}"`;
  });
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

async function main(): Promise<void> {
  const SQL = await initSqlJs();
  const multiPage = makeMultiPage(SQL);
  const virtual = makeVirtualTable(SQL);

  const fixtures: Fixture[] = [
    {
      file: 'tricky.sqlite',
      description:
        'introspection stress: odd identifiers, every affinity, composite/multi-column/cyclic FKs, WITHOUT ROWID, STRICT, generated cols, views, indexes, empty table, blobs',
      bytes: makeTricky(SQL),
      verify: verifyTricky,
    },
    {
      file: 'tiny.sqlite',
      description: 'people(5) + pets(6) with comma, quote, newline, HTML and NULL values',
      bytes: makeTiny(SQL),
      verify: verifyTiny,
    },
    {
      file: 'no-tables.sqlite',
      description: 'valid database with no tables (user_version=7)',
      bytes: makeNoTables(SQL),
      verify: verifyNoTables,
    },
    {
      file: 'not-sqlite.db',
      description: 'a CSV file with a .db extension',
      bytes: new TextEncoder().encode(NOT_SQLITE_TEXT),
      verify: verifyNotSqlite,
    },
    { file: 'empty.sqlite', description: 'zero bytes', bytes: new Uint8Array(0), verify: verifyEmpty },
    {
      file: 'truncated.sqlite',
      description: `first ${Math.floor(pageCountOf(multiPage) / 2)} of ${pageCountOf(multiPage)} pages + 100 bytes of a valid db`,
      bytes: makeTruncated(multiPage),
      verify: verifyTruncated,
    },
    {
      file: 'corrupt.sqlite',
      description: 'valid multi-page db with a leaf page cell-pointer array overwritten',
      bytes: makeCorrupt(multiPage),
      verify: verifyCorrupt,
    },
    {
      file: 'encrypted.sqlite',
      description: '8 KiB of seeded random bytes (looks like SQLCipher: no header)',
      bytes: randomBytes(8192),
      verify: verifyEncrypted,
    },
    {
      file: 'wal-mode.sqlite',
      description: 'valid db with header bytes 18/19 set to 2 (WAL), no -wal file',
      bytes: makeWal(SQL),
      verify: verifyWal,
    },
    {
      file: 'virtual-table.sqlite',
      description: `notes + notes_fts (${virtual.ftsModule}) + a vec0 virtual table sql.js cannot load`,
      bytes: virtual.bytes,
      verify: (S, b) => verifyVirtualTable(S, b, virtual.ftsModule),
    },
  ];

  mkdirSync(PRIMARY_DIR, { recursive: true });
  for (const dir of COPY_DIRS) mkdirSync(dir, { recursive: true });

  const report: string[][] = [];
  for (const fixture of fixtures) {
    assert(fixture.bytes.length <= MAX_FIXTURE_BYTES, `${fixture.file} is ${fixture.bytes.length} bytes`);
    const target = resolve(PRIMARY_DIR, fixture.file);
    writeFileSync(target, fixture.bytes);
    for (const dir of COPY_DIRS) copyFileSync(target, resolve(dir, fixture.file));
    const result = fixture.verify(SQL, fixture.bytes);
    const sha = createHash('sha256').update(fixture.bytes).digest('hex').slice(0, 12);
    report.push([fixture.file, String(fixture.bytes.length), sha, fixture.description, result]);
  }

  const dirs = [PRIMARY_DIR, ...COPY_DIRS].map((d) => relative(ROOT, d)).join(' and ');
  console.log(`wrote ${fixtures.length} fixtures to ${dirs}\n`);
  const widths = [0, 1, 2].map((i) => Math.max(...report.map((r) => r[i].length)));
  for (const [file, size, sha, description, result] of report) {
    console.log(`${file.padEnd(widths[0])}  ${size.padStart(widths[1])} B  ${sha}  ${description}`);
    console.log(`${''.padEnd(widths[0] + widths[1] + widths[2] + 8)}-> ${result}`);
  }
}

await main();
