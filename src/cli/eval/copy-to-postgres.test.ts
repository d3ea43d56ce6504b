// The SQLite-to-PostgreSQL loader against a real throw-away cluster (CI installs PostgreSQL).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDb } from '../../test-support/build-db';
import { databaseUrl, pgSkipReason, usePgCluster } from '../../test-support/pg-cluster';
import { runCli } from '../test-support/run-cli';
import { copySqliteToPostgres, createDatabaseIfMissing, type CopyReport } from './copy-to-postgres';

const FIXTURE = `
CREATE TABLE "Singer" (
  Singer_ID INTEGER PRIMARY KEY, Name TEXT, Age INTEGER, Net_Worth REAL, Rating NUMERIC,
  Big INTEGER, Photo BLOB, Unused NUMERIC, Spare INTEGER, Born TEXT
);
INSERT INTO "Singer" VALUES
  (1, 'Ada', 30, 1.5, 2, 9007199254740993, x'00ff10', NULL, NULL, '1990-01-02'),
  (2, 'Bo', 'unknown', 2.25, 3.5, 1, NULL, NULL, NULL, '1991-02-03 10:00:00'),
  (3, 'C' || char(0) || 'y', 45, NULL, NULL, -5, x'', NULL, NULL, '1992-3-4');
CREATE TABLE concert (
  concert_ID INTEGER PRIMARY KEY, Singer_ID INTEGER REFERENCES Singer(Singer_ID), Year TEXT, Price REAL,
  Venue TEXT REFERENCES ticket(Venue)
);
INSERT INTO concert VALUES (1, 1, '2014', 10.5, 'Hall'), (2, 1, '2015', 20, 'Hall'),
  (3, 2, '2015', 7.25, 'Park'), (4, 99, '2016', NULL, NULL);
-- No type: 1 and '1' are two keys in SQLite, and the same text in the copy.
CREATE TABLE ticket (code PRIMARY KEY, Venue TEXT);
INSERT INTO ticket VALUES (1, 'Hall'), ('1', 'Hall'), ('B7', 'Park');
CREATE VIEW old_singers AS SELECT * FROM Singer WHERE Age > 40;
`;

const same = [
  'SELECT count(*) FROM concert',
  'SELECT sum(price) FROM concert',
  'SELECT count(*) FROM concert c JOIN singer s ON s.singer_id = c.singer_id',
  'SELECT singer_id, count(*) FROM concert GROUP BY singer_id ORDER BY singer_id',
  'SELECT max(net_worth), min(rating) FROM singer',
];

function withDatabase(url: string, db: string): string {
  return url.replace(/\/[^/?]*(\?|$)/, `/${db}$1`);
}

describe.skipIf(pgSkipReason)('copySqliteToPostgres on a real server', () => {
  const cluster = usePgCluster();
  let dir: string;
  let file: string;
  let url: string;
  let report: CopyReport;
  let client: pg.Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dowser-copy-pg-'));
    file = join(dir, 'concert_singer.sqlite');
    writeFileSync(file, await buildDb(FIXTURE));
    expect(await createDatabaseIfMissing(cluster.get().url, 'copy_test')).toBe(true);
    expect(await createDatabaseIfMissing(cluster.get().url, 'copy_test')).toBe(false);
    url = databaseUrl(cluster.get(), 'copy_test');
    report = await copySqliteToPostgres({ sqlitePath: file, url });
    client = new pg.Client(url);
    await client.connect();
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names tables and columns in lower case, typed from the values stored', () => {
    expect(report.tables.map((t) => [t.from, t.to, t.rows])).toEqual([
      ['Singer', 'singer', 3],
      ['concert', 'concert', 4],
      ['ticket', 'ticket', 3],
    ]);
    expect(report.tables[0].columns).toEqual([
      { from: 'Singer_ID', to: 'singer_id', type: 'integer' },
      { from: 'Name', to: 'name', type: 'text' },
      { from: 'Age', to: 'age', type: 'text' },
      { from: 'Net_Worth', to: 'net_worth', type: 'double precision' },
      { from: 'Rating', to: 'rating', type: 'double precision' },
      { from: 'Big', to: 'big', type: 'bigint' },
      { from: 'Photo', to: 'photo', type: 'bytea' },
      { from: 'Unused', to: 'unused', type: 'numeric' },
      { from: 'Spare', to: 'spare', type: 'bigint' },
      { from: 'Born', to: 'born', type: 'text' },
    ]);
    expect(report.tables[2].columns.map((c) => c.type)).toEqual(['text', 'text']);
  });

  it('gives the server the same types', async () => {
    const { rows } = await client.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'singer' ORDER BY ordinal_position`,
    );
    expect(rows.map((r) => r.data_type)).toEqual(report.tables[0].columns.map((c) => c.type));
  });

  it('keeps values exactly: big integers, blobs, dates, mixed values as their text', async () => {
    const { rows } = await client.query(
      'SELECT singer_id, name, age, big::text AS big, photo, born, unused, spare FROM singer ORDER BY singer_id',
    );
    expect(rows).toEqual([
      {
        singer_id: 1,
        name: 'Ada',
        age: '30',
        big: '9007199254740993',
        photo: Buffer.from([0, 255, 16]),
        born: '1990-01-02',
        unused: null,
        spare: null,
      },
      {
        singer_id: 2,
        name: 'Bo',
        age: 'unknown',
        big: '1',
        photo: null,
        born: '1991-02-03 10:00:00',
        unused: null,
        spare: null,
      },
      {
        singer_id: 3,
        name: 'Cy',
        age: '45',
        big: '-5',
        photo: Buffer.alloc(0),
        born: '1992-3-4',
        unused: null,
        spare: null,
      },
    ]);
  });

  it('adds the keys the data allows, foreign keys NOT VALID, and says what it skipped', async () => {
    const { rows } = await client.query<{ rel: string; contype: string; convalidated: boolean; def: string }>(
      `SELECT conrelid::regclass::text AS rel, contype, convalidated, pg_get_constraintdef(oid) AS def
         FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2, 4`,
    );
    expect(rows).toEqual([
      {
        rel: 'concert',
        contype: 'f',
        convalidated: false,
        def: 'FOREIGN KEY (singer_id) REFERENCES singer(singer_id) NOT VALID',
      },
      { rel: 'concert', contype: 'p', convalidated: true, def: 'PRIMARY KEY (concert_id)' },
      { rel: 'singer', contype: 'p', convalidated: true, def: 'PRIMARY KEY (singer_id)' },
    ]);
    expect(report.notes).toEqual([
      'view old_singers skipped (its SQLite SQL is not carried over)',
      "Singer.Age: mixed values (2 integer, 1 text) copied as text, each as SQLite's text of it",
      "ticket.code: mixed values (1 integer, 2 text) copied as text, each as SQLite's text of it",
      'Singer: 1 text value held NUL characters, which PostgreSQL text cannot: removed',
      'ticket: primary key (code) skipped: Key (code)=(1) is duplicated.',
      'foreign key concert (Venue) -> ticket skipped: (Venue) of ticket has no primary key or unique constraint in the copy',
    ]);
  });

  it('answers questions with the same numbers as SQLite', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database(await buildDb(FIXTURE));
    try {
      for (const q of same) {
        const lite = db.exec(q)[0].values.map((r) => r.map(Number));
        const server = (await client.query({ text: q, rowMode: 'array' })).rows.map((r: unknown[]) => r.map(Number));
        expect(server, q).toEqual(lite);
      }
    } finally {
      db.close();
    }
  });

  it('fails on a second copy naming the tables, and replaces them with replace (twice)', async () => {
    await expect(copySqliteToPostgres({ sqlitePath: file, url })).rejects.toThrow(
      /tables "concert", "singer", "ticket" already exist in dowser_admin@127\.0\.0\.1:\d+\/copy_test/,
    );
    for (let i = 0; i < 2; i++) {
      const again = await copySqliteToPostgres({ sqlitePath: file, url, replace: true });
      expect(again.tables.map((t) => t.rows)).toEqual([3, 4, 3]);
    }
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f'`);
    expect(rows).toEqual([{ n: 1 }]);
  });
});

describe.skipIf(pgSkipReason)('dowser copy-to-postgres --spider', () => {
  const cluster = usePgCluster();
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dowser-copy-spider-'));
    for (const [db, sql] of [
      [
        'pets',
        "CREATE TABLE Pets (PetID INTEGER PRIMARY KEY, Kind TEXT); INSERT INTO Pets VALUES (1, 'cat'), (2, 'dog');",
      ],
      ['Shop_1', "CREATE TABLE shop (id INTEGER PRIMARY KEY, city TEXT); INSERT INTO shop VALUES (1, 'Oslo');"],
    ]) {
      mkdirSync(join(dir, db));
      writeFileSync(join(dir, db, `${db}.sqlite`), await buildDb(sql));
    }
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies each database into its own, and never prints the password', async () => {
    const { url, password } = cluster.get();
    const r = await runCli(['copy-to-postgres', '--spider', dir, '--to', url, '--prefix', 'cli_']);
    expect(r.stderr).toMatch(/copied 2 of 2 databases \(2 tables, 3 rows\)/);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^dowser_admin@127\.0\.0\.1:\d+\/cli_pets: 1 tables, 2 rows, 0 notes$/),
      expect.stringMatching(/^dowser_admin@127\.0\.0\.1:\d+\/cli_shop_1: 1 tables, 1 rows, 0 notes$/),
    ]);
    const again = await runCli(['copy-to-postgres', '--spider', dir, '--to', url, '--prefix', 'cli_']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/cli_pets: error: table "pets" already exists/);
    const replaced = await runCli(['copy-to-postgres', '--spider', dir, '--to', url, '--prefix', 'cli_', '--replace']);
    expect(replaced.code).toBe(0);
    for (const out of [r, again, replaced]) expect(out.stdout + out.stderr).not.toContain(password);

    const client = new pg.Client(url);
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE 'cli_%' ORDER BY 1`);
      expect(rows.map((x) => x.datname)).toEqual(['cli_pets', 'cli_shop_1']);
    } finally {
      await client.end();
    }
    const pets = new pg.Client(withDatabase(url, 'cli_pets'));
    await pets.connect();
    try {
      expect((await pets.query('SELECT petid, kind FROM pets ORDER BY 1')).rows).toEqual([
        { petid: 1, kind: 'cat' },
        { petid: 2, kind: 'dog' },
      ]);
    } finally {
      await pets.end();
    }
  });

  it('says what is wrong with its arguments', async () => {
    const r = await runCli([
      'copy-to-postgres',
      '--db',
      'x.sqlite',
      '--spider',
      dir,
      '--to',
      'postgres://u:secret@h/d',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('name one of --db <file.sqlite> or --spider <dir>');
    const bad = await runCli(['copy-to-postgres', '--db', 'x.sqlite', '--to', 'mysql://u:secret@h/d']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('secret');
  });
});
