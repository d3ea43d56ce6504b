// Writes the value database (value-data.ts) as a SQLite file with sql.js, the engine the app
// runs on, and keeps it in the OS temp folder keyed by its parameters: generating a million rows
// takes seconds, reusing the file takes milliseconds. The build time is reported on its own.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { now } from './random';
import { generateValueTables } from './value-data';

/** Bump when the generated contents change, so stale cached files are not reused. */
const GENERATOR_VERSION = 1;

export interface ValueDbInfo {
  rows: number;
  tables: Array<{ name: string; rows: number }>;
  /** Distinct text values in the file (all columns, each value counted once per column). */
  distinctTextValues: number;
  sizeBytes: number;
  /** Generating and writing the file; the time of the run that built it when reused. */
  buildMs: number;
}

export interface ValueDb extends ValueDbInfo {
  bytes: Uint8Array;
  /** Where the file is cached; null when caching is off. */
  path: string | null;
  reused: boolean;
}

export interface ValueDbOptions {
  rows: number;
  seed: number;
  /** Folder for the cached file (os.tmpdir() in the CLI); null builds in memory every time. */
  cacheDir: string | null;
  log?(message: string): void;
}

export async function ensureValueDb({ rows, seed, cacheDir, log }: ValueDbOptions): Promise<ValueDb> {
  const base = cacheDir === null ? null : join(cacheDir, `dowser-bench-values-v${GENERATOR_VERSION}-r${rows}-s${seed}`);
  if (base && existsSync(`${base}.sqlite`) && existsSync(`${base}.json`)) {
    try {
      const info = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as ValueDbInfo;
      const b = readFileSync(`${base}.sqlite`);
      if (b.byteLength === info.sizeBytes) {
        return {
          ...info,
          bytes: new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
          path: `${base}.sqlite`,
          reused: true,
        };
      }
    } catch {
      // A damaged cache entry is rebuilt below.
    }
  }
  log?.(`generating the value database (${rows.toLocaleString('en-US')} rows, seed ${seed}) …`);
  const t0 = now();
  const { bytes, info } = await writeValueDb(rows, seed);
  const built: ValueDbInfo = { ...info, buildMs: Math.round(now() - t0) };
  if (base) {
    mkdirSync(cacheDir!, { recursive: true });
    // Written under a temporary name and renamed: a run stopped half-way leaves no partial file
    // that a later run would take for a finished one.
    const tmp = `${base}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, `${base}.sqlite`);
    writeFileSync(`${base}.json`, JSON.stringify(built, null, 2) + '\n');
  }
  return { ...built, bytes, path: base ? `${base}.sqlite` : null, reused: false };
}

async function writeValueDb(
  rows: number,
  seed: number,
): Promise<{ bytes: Uint8Array; info: Omit<ValueDbInfo, 'buildMs'> }> {
  const tables = generateValueTables(rows, seed);
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  let distinctTextValues = 0;
  try {
    // A file being generated needs no rollback journal, and a page cache larger than the file
    // keeps sql.js from writing pages to its in-memory file system before the commit. Each made
    // inserting several times faster (measured: 100k rows 2.1 s with neither, 0.5 s with both).
    db.run('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -524288');
    for (const t of tables) db.run(t.create);
    // One transaction and one prepared statement per table.
    db.run('BEGIN');
    for (const t of tables) {
      const insert = db.prepare(
        `INSERT INTO ${t.name} (${t.columns.join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})`,
      );
      const textAt = new Map(t.text.map((c) => [c.name, c]));
      const row: Array<string | number | null> = new Array(t.columns.length);
      for (let r = 0; r < t.rows; r++) {
        for (let j = 0; j < t.columns.length; j++) {
          const text = textAt.get(t.columns[j]);
          if (!text) row[j] = t.other(t.columns[j], r);
          else row[j] = text.cells[r] < 0 ? null : text.pool[text.cells[r]];
        }
        insert.run(row);
      }
      insert.free();
      for (const c of t.text) distinctTextValues += new Set(c.cells.filter((i) => i >= 0)).size;
    }
    db.run('COMMIT');
    const bytes = db.export();
    return {
      bytes,
      info: {
        rows: tables.reduce((n, t) => n + t.rows, 0),
        tables: tables.map((t) => ({ name: t.name, rows: t.rows })),
        distinctTextValues,
        sizeBytes: bytes.byteLength,
      },
    };
  } finally {
    db.close();
  }
}
