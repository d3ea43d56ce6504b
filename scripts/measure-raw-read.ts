/**
 * How long SQLite (sql.js) needs to hand a file's text columns to JavaScript, three ways, next
 * to the engine's paged read that `dowser bench` uses as its baseline (decision 013):
 *   raw            one statement per table, step()/get()
 *   paged          rowid pages of 50,000 (as the extraction reads)
 *   paged+bigint   the same with get(..., { useBigInt: true }), as the engine reads
 *   heap bytes     rowid pages stepped through sql.js's exported C functions, each text cell's
 *                  UTF-8 bytes read in the wasm heap (sqlite3_column_text/bytes) and hashed, no
 *                  JS value made; "+decode" also decodes every cell with TextDecoder
 * and how long an FTS4 table in memory takes to tokenize the file's long texts (> 100
 * characters), the in-SQLite alternative to the JavaScript tokenizer.
 *
 *   npx tsx scripts/measure-raw-read.ts --db <file.sqlite> [--fts4]
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadSqlJs } from '../src/adapters/sqljs/runtime';
import { readTextColumns } from '../src/cli/bench/file-bench';
import { createNodeEngine } from '../src/adapters/sqljs/node';
import { executorFor } from '../src/core/executor';
import { mayHoldText, valueTables } from '../src/core/retrieval/distinct-values';
import { quoteIdent } from '../src/core/sql/quote';
import type { SqlValue } from '../src/core/types';

const at = process.argv.indexOf('--db');
if (at < 0) throw new Error('usage: scripts/measure-raw-read.ts --db <file.sqlite> [--fts4]');
const file = process.argv[at + 1];
// sql.js makes one module per realm: instantiating it first here keeps a handle on its memory.
let memory: WebAssembly.Memory | undefined;
const wasm = await readFile(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
const { SQL } = await loadSqlJs(async (imports) => {
  const { instance } = await WebAssembly.instantiate(wasm, imports);
  memory = Object.values(instance.exports).find((v): v is WebAssembly.Memory => v instanceof WebAssembly.Memory);
  return instance;
});
const engine = await createNodeEngine();
await engine.open({ id: 'b', name: file, bytes: { path: file } });
const schema = await engine.introspect('b');
const tables = valueTables(schema)
  .filter((t) => !t.withoutRowid)
  .map((t) => ({ name: quoteIdent(t.name), cols: t.columns.filter(mayHoldText).map((c) => quoteIdent(c.name)) }));
const db = new SQL.Database(readFileSync(file));
const PAGE = 50_000;

function read(paged: boolean, bigint: boolean): number {
  const t0 = performance.now();
  let chars = 0;
  for (const t of tables) {
    let last: SqlValue = null;
    for (;;) {
      const where = paged && last !== null ? ' WHERE rowid > ?' : '';
      const tail = paged ? ` ORDER BY rowid LIMIT ${PAGE}` : '';
      const st = db.prepare(`SELECT rowid, ${t.cols.join(', ')} FROM ${t.name}${where}${tail}`);
      if (where) st.bind([last as number]);
      let rows = 0;
      while (st.step()) {
        const row = (
          bigint ? (st.get as (p: null, c: object) => SqlValue[])(null, { useBigInt: true }) : st.get()
        ) as SqlValue[];
        for (const v of row) if (typeof v === 'string') chars += v.length;
        last = typeof row[0] === 'bigint' ? Number(row[0]) : row[0];
        rows++;
      }
      st.free();
      if (!paged || rows < PAGE) break;
    }
  }
  return Math.round(performance.now() - t0 + (chars < 0 ? 1 : 0));
}

/** sql.js's exported C functions (the module has them; its typings do not). */
const C = SQL as unknown as Record<string, (...args: number[]) => number>;
const dbPointer = (db as unknown as { db: number }).db;

function prepare(sql: string): number {
  const saved = C.stackSave();
  const out = C.stackAlloc(4);
  const text = (SQL as unknown as { stringToNewUTF8(s: string): number }).stringToNewUTF8(sql);
  const rc = C._sqlite3_prepare_v2(dbPointer, text, -1, out, 0);
  const stmt = new Int32Array(memory!.buffer)[out >> 2];
  C._free(text);
  C.stackRestore(saved);
  if (rc !== 0) throw new Error(`prepare failed (${rc}): ${sql}`);
  return stmt;
}

function heapRead(decode: boolean): number {
  const t0 = performance.now();
  const decoder = new TextDecoder();
  let h = 0x811c9dc5;
  for (const t of tables) {
    let last = -Infinity;
    for (;;) {
      const stmt = prepare(
        `SELECT rowid, ${t.cols.join(', ')} FROM ${t.name} WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE}`,
      );
      C._sqlite3_bind_double(stmt, 1, last);
      let heap = new Uint8Array(memory!.buffer);
      let rows = 0;
      while (C._sqlite3_step(stmt) === 100) {
        for (let j = 1; j <= t.cols.length; j++) {
          if (C._sqlite3_column_type(stmt, j) !== 3) continue;
          const start = C._sqlite3_column_text(stmt, j);
          const end = start + C._sqlite3_column_bytes(stmt, j);
          if (heap.buffer !== memory!.buffer) heap = new Uint8Array(memory!.buffer);
          if (decode) h ^= decoder.decode(heap.subarray(start, end)).length;
          else for (let i = start; i < end; i++) h = Math.imul(h ^ heap[i], 16777619);
        }
        last = C._sqlite3_column_double(stmt, 0);
        rows++;
      }
      C._sqlite3_finalize(stmt);
      if (rows < PAGE) break;
    }
  }
  return Math.round(performance.now() - t0 + (h === 0.5 ? 1 : 0));
}

for (let run = 1; run <= 2; run++) {
  const engineRead = Math.round((await readTextColumns(executorFor(engine, 'b'), schema)).ms);
  console.log(
    `run ${run}: raw ${read(false, false)} ms, paged ${read(true, false)} ms, paged+bigint ${read(true, true)} ms, heap bytes ${heapRead(false)} ms (+decode ${heapRead(true)} ms), engine's paged read (bench baseline) ${engineRead} ms`,
  );
}
if (process.argv.includes('--fts4')) {
  db.run('CREATE VIRTUAL TABLE temp.words USING fts4(x, tokenize=simple)');
  const t0 = performance.now();
  for (const t of tables)
    for (const c of t.cols)
      db.run(`INSERT INTO temp.words(x) SELECT ${c} FROM ${t.name} WHERE typeof(${c}) = 'text' AND length(${c}) > 100`);
  console.log(`FTS4 tokenizing the long texts: ${Math.round(performance.now() - t0)} ms`);
}
