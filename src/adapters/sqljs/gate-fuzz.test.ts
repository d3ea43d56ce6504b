// The read-only gate against a generated corpus (issue 11, "fuzzing kept as tests"): at least
// 4,000 disguised statements SQLite itself confirms as writes (on a scratch copy, no gates), and
// at least 80 disguised ordinary reads, through the real query path. After every case: the bytes
// of the file unchanged (sha256), nothing changed on the connection (total_changes(), schema
// version, user_version, application_id, query_only still on, no attached or temp database) and
// the data the same. Every write must be refused; every read must run.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DbEngine } from '../../core/engine';
import { CORPUS_SCHEMA_SQL, gateCorpus, type GateCorpus } from '../../test-support/sql-corpus';
import { RestartableEngine } from '../../worker/db-client';
import { spawnNodeDbWorker } from '../../worker/node/spawn';
import { createNodeEngine } from './node';

const STATE = `SELECT total_changes(), (SELECT schema_version FROM pragma_schema_version),
  (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM pragma_application_id),
  (SELECT query_only FROM pragma_query_only), (SELECT count(*) FROM pragma_database_list),
  (SELECT count(*) FROM sqlite_temp_schema),
  (SELECT group_concat(a || ':' || ifnull(b, '') || ':' || ifnull(c, ''), ',') FROM t),
  (SELECT group_concat(x || ':' || ifnull(y, ''), ',') FROM u),
  (SELECT group_concat(name, ',') FROM sqlite_schema)`;

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let bytes: Uint8Array;
let corpus: GateCorpus;

beforeAll(async () => {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(CORPUS_SCHEMA_SQL);
  bytes = db.export();
  db.close();
  corpus = gateCorpus(SQL, bytes, { writes: 4_000, reads: 80 });
}, 120_000);

/** Runs every case; returns the failures (empty when the gate held and every read ran). */
async function runCorpus(engine: DbEngine, writes: string[], reads: string[]) {
  const fileHash = sha256(bytes);
  const failures: string[] = [];
  const state = async () => JSON.stringify((await engine.query('db', STATE)).rows[0]);
  const initial = await state();
  expect(JSON.parse(initial)[0]).toBe(0); // total_changes() starts at 0
  expect(JSON.parse(initial)[4]).toBe(1); // query_only is on
  const check = async (sql: string) => {
    if (sha256(bytes) !== fileHash) failures.push(`file changed after ${JSON.stringify(sql)}`);
    const now = await state();
    if (now !== initial) failures.push(`connection changed after ${JSON.stringify(sql)}: ${now}`);
  };
  for (const sql of writes) {
    const outcome = await engine.query('db', sql).then(
      () => 'ran',
      (e: { code?: string }) => e.code ?? 'unknown',
    );
    if (outcome === 'ran') failures.push(`write ran: ${JSON.stringify(sql)}`);
    await check(sql);
  }
  for (const sql of reads) {
    await engine
      .query('db', sql)
      .catch((e: Error) => failures.push(`read refused: ${JSON.stringify(sql)}: ${e.message}`));
    await check(sql);
  }
  return failures;
}

describe('read-only gate, generated corpus', () => {
  it('has the size the issue asks for, every case confirmed by SQLite', () => {
    expect(corpus.writes.length).toBeGreaterThanOrEqual(4_000);
    expect(corpus.reads.length).toBeGreaterThanOrEqual(80);
    // Writes of every kind made it in: data, schema, pragmas, attach, several statements.
    for (const kind of [
      /INSERT/i,
      /UPDATE/i,
      /DELETE/i,
      /CREATE/i,
      /DROP/i,
      /ALTER/i,
      /PRAGMA/i,
      /ATTACH/i,
      /VACUUM/i,
      /;\s*\S/,
    ])
      expect(corpus.writes.some((w) => kind.test(w))).toBe(true);
  });

  it('in process (the CLI path): every write refused, every read allowed, nothing changed', async () => {
    const engine = await createNodeEngine();
    await engine.open({ id: 'db', name: 'corpus.sqlite', bytes });
    const failures = await runCorpus(engine, corpus.writes, corpus.reads);
    expect(failures).toEqual([]);
  }, 120_000);

  it('read from the file as needed (issue 26): every write refused, every read allowed, the file unchanged', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dowser-fuzz-')), 'corpus.sqlite');
    writeFileSync(path, bytes);
    const engine = await createNodeEngine();
    const report = await engine.open({ id: 'db', name: 'corpus.sqlite', bytes: { path }, read: 'file' });
    expect(report.readFrom).toBe('file');
    const failures = await runCorpus(engine, corpus.writes, corpus.reads);
    expect(failures).toEqual([]);
    expect(sha256(readFileSync(path))).toBe(sha256(bytes));
  }, 120_000);

  it('through the worker (the page path), a sample of 400 writes and every read', async () => {
    const engine = new RestartableEngine(spawnNodeDbWorker);
    try {
      await engine.open({ id: 'db', name: 'corpus.sqlite', bytes: bytes.slice() });
      const sample = corpus.writes.filter((_, i) => i % 10 === 0);
      expect(sample.length).toBeGreaterThanOrEqual(400);
      expect(await runCorpus(engine, sample, corpus.reads)).toEqual([]);
    } finally {
      engine.dispose();
    }
  }, 120_000);
});
