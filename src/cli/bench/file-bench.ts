// `dowser bench --db <file> --queries <queries.json>`: measures any SQLite file the way the
// app uses it. The file is opened as the CLI opens files, the toolbox is built with the
// engine's buildTools (what the page's worker runs), and search_value is called through the
// engine's callTool (validation, index, any fallback, the observation). In the same run, the
// text columns are read once plainly (sqliteReadMs), so the build is reported as a ratio to
// what SQLite needs just to hand those values to JavaScript; the ratio holds on any machine.

import v8 from 'node:v8';
import vm from 'node:vm';
import type { DbEngine, ToolsSummary } from '../../core/engine';
import { executorFor, type SqlExecutor } from '../../core/executor';
import { isLastPage, mayHoldText } from '../../core/retrieval/distinct-values';
import { quoteIdent } from '../../core/sql/quote';
import type { ValueSearchResult } from '../../core/tools/search-value';
import type { Schema, SqlValue } from '../../core/types';
import { ms3, now, percentile, ratio3 } from './random';
import type { BenchQuery, QueryFile } from './shop-queries';

export interface KindResult {
  n: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  hitAt5: number;
  hitAt1: number;
  /**
   * CPU time of this process per call: on a busy machine wall time also counts the time other
   * processes hold the cores, CPU time much less so (it still includes the garbage collector).
   */
  p50CpuMs: number;
  p95CpuMs: number;
  /** Queries whose answer said some columns were searched with LIKE (a scan at question time). */
  likeQueries: number;
  /** Queries whose answer said the search stopped at its time budget (partial results). */
  partialQueries: number;
  /** Up to 5 missed queries, to look at. */
  misses: Array<{ query: string; expect: string; got: string[] }>;
}

export interface FileBenchReport {
  file: string;
  sizeBytes: number;
  openMs: number;
  introspectMs: number;
  /** Plain paged read of every text column (best of a read before and one after the build). */
  sqliteReadMs: number;
  sqliteReadRuns: number[];
  textCellsRead: number;
  /** buildTools end to end: statistics, extraction, value index, keys, column index. */
  buildMs: number;
  buildStagesMs: ToolsSummary['timings'];
  /**
   * Extraction + value index stages (with a tokenizing worker, 'value-index' is the time waited
   * for it after the statistics, computed meanwhile).
   */
  valueIndexMs: number;
  /** Where the values were tokenized (a worker, the engine's thread, or that after a failure). */
  tokenizedIn: ToolsSummary['tokenizedIn'];
  buildToSqliteRead: number;
  valueIndexToSqliteRead: number;
  valuesIndexed: number;
  /** Columns whose values are not all indexed, with the reason. */
  valuePolicies: ToolsSummary['valuePolicies'];
  /** JS heap + external memory the toolbox holds (after garbage collection). */
  indexMemoryMB: number | null;
  /** Resident memory after opening the file, relative to before (the file once is its size). */
  openRssDeltaMB: number;
  peakRssMB: number;
  kinds: Record<string, KindResult>;
  k: number;
  machine: { node: string; cpu: string; cpus: number; loadAverage: { start: number; end: number } };
  createdAt: string;
  totalMs: number;
}

const K = 5;
const MiB = 2 ** 20;
const READ_PAGE = 50_000;

/** A garbage collection on demand (for memory figures), when Node lets us have one. */
function collector(): (() => void) | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}

/**
 * Collects garbage until memory settles: array buffers' memory is given back after the
 * collection that frees them (on another thread), so one gc() right after a build still counts
 * the pools the build dropped (up to 1.7x the index on the 100 MB shop).
 */
async function settle(gc: (() => void) | null): Promise<void> {
  if (!gc) return;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 100));
  }
}

const heldMemory = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

/** Every text column read once, in rowid pages as any JS reader would: the baseline of the build. */
export async function readTextColumns(exec: SqlExecutor, schema: Schema): Promise<{ ms: number; cells: number }> {
  const t0 = now();
  let cells = 0;
  let chars = 0;
  for (const t of schema.tables) {
    if (t.kind !== 'table' || t.error) continue;
    const cols = t.columns.filter(mayHoldText);
    if (cols.length === 0) continue;
    const list = cols.map((c) => quoteIdent(c.name)).join(', ');
    const rowid = t.withoutRowid ? null : 'rowid';
    let last: SqlValue = null;
    for (let offset = 0; ; offset += READ_PAGE) {
      const sql = rowid
        ? `SELECT rowid, ${list} FROM ${quoteIdent(t.name)}${last === null ? '' : ' WHERE rowid > ?'} ORDER BY rowid LIMIT ${READ_PAGE}`
        : `SELECT ${list} FROM ${quoteIdent(t.name)} LIMIT ${READ_PAGE} OFFSET ${offset}`;
      const page = await exec.query(sql, { maxRows: READ_PAGE, params: last === null || !rowid ? [] : [last] });
      for (const row of page.rows)
        for (let j = rowid ? 1 : 0; j < row.length; j++) {
          const v = row[j];
          if (typeof v === 'string') {
            cells++;
            chars += v.length;
          }
        }
      if (isLastPage(page, READ_PAGE)) break;
      if (rowid) last = page.rows[page.rows.length - 1][0];
    }
  }
  // `chars` keeps the reads from being optimised away.
  return { ms: now() - t0 + (chars < 0 ? 1 : 0), cells };
}

function hitRank(out: ValueSearchResult | null, q: BenchQuery): number {
  if (!out) return -1;
  return out.hits.findIndex(
    (h) =>
      h.value === q.expect &&
      (!q.table || h.table.toLowerCase() === q.table.toLowerCase()) &&
      (!q.column || h.column.toLowerCase() === q.column.toLowerCase()),
  );
}

async function measureKind(engine: DbEngine, id: string, queries: BenchQuery[]): Promise<KindResult> {
  const times: number[] = [];
  const cpu: number[] = [];
  let at1 = 0;
  let at5 = 0;
  let like = 0;
  let partial = 0;
  const misses: KindResult['misses'] = [];
  for (const q of queries) {
    const args = {
      query: q.query,
      k: K,
      ...(q.table ? { table: q.table } : {}),
      ...(q.column ? { column: q.column } : {}),
    };
    await engine.callTool(id, 'search_value', args); // warm-up: the first call of a query is not timed
    const c0 = process.cpuUsage();
    const t0 = now();
    const outcome = await engine.callTool(id, 'search_value', args);
    times.push(now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    const out = outcome.ok ? (outcome.output as ValueSearchResult) : null;
    const rank = hitRank(out, q);
    if (rank === 0) at1++;
    if (rank >= 0 && rank < K) at5++;
    else if (misses.length < 5)
      misses.push({ query: q.query, expect: q.expect, got: out?.hits.map((h) => h.value) ?? [] });
    // Answers of the code before issue 10 listed the columns they searched with LIKE.
    if (((out as { likeSearched?: unknown[] } | null)?.likeSearched?.length ?? 0) > 0) like++;
    if (out && (out as { partial?: unknown }).partial) partial++;
  }
  return {
    n: queries.length,
    p50Ms: ms3(percentile(times, 0.5)),
    p95Ms: ms3(percentile(times, 0.95)),
    maxMs: ms3(percentile(times, 1)),
    hitAt5: ratio3(at5, queries.length),
    hitAt1: ratio3(at1, queries.length),
    p50CpuMs: ms3(percentile(cpu, 0.5)),
    p95CpuMs: ms3(percentile(cpu, 0.95)),
    likeQueries: like,
    partialQueries: partial,
    misses,
  };
}

export interface FileBenchOptions {
  /** Opens the file as the CLI does; resolves to the engine, the database id and the file size. */
  open(): Promise<{ engine: DbEngine; id: string; sizeBytes: number }>;
  file: string;
  queries: QueryFile;
  /** Only the first N queries of each kind. */
  perKind?: number;
  log?(message: string): void;
}

export async function benchFile(options: FileBenchOptions): Promise<FileBenchReport> {
  const started = now();
  const loadStart = (await import('node:os')).loadavg()[0];
  const { log } = options;
  const gc = collector();
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  const t0 = now();
  const { engine, id, sizeBytes } = await options.open();
  const openMs = now() - t0;
  const openRssDeltaMB = (process.memoryUsage().rss - rssBefore) / MiB;
  const exec = executorFor(engine, id);
  const t1 = now();
  const schema = await engine.introspect(id);
  const introspectMs = now() - t1;

  log?.('reading the text columns once (baseline) …');
  const read1 = await readTextColumns(exec, schema);
  await settle(gc);
  const memBefore = heldMemory();
  log?.('building the toolbox as the app does …');
  const t2 = now();
  const summary = await engine.buildTools(id, {});
  const buildMs = now() - t2;
  await settle(gc);
  const indexMemoryMB = gc ? Math.round((heldMemory() - memBefore) / MiB) : null;
  log?.('reading the text columns again …');
  const read2 = await readTextColumns(exec, schema);
  const sqliteReadMs = Math.min(read1.ms, read2.ms);
  const valueIndexMs = (summary.timings.values ?? 0) + (summary.timings['value-index'] ?? 0);

  const kinds: Record<string, KindResult> = {};
  for (const [kind, list] of Object.entries(options.queries)) {
    const queries = options.perKind ? list.slice(0, options.perKind) : list;
    log?.(`${kind}: ${queries.length} queries …`);
    kinds[kind] = await measureKind(engine, id, queries);
  }
  const cpus = (await import('node:os')).cpus();
  return {
    file: options.file,
    sizeBytes,
    openMs: Math.round(openMs),
    introspectMs: Math.round(introspectMs),
    sqliteReadMs: Math.round(sqliteReadMs),
    sqliteReadRuns: [Math.round(read1.ms), Math.round(read2.ms)],
    textCellsRead: read1.cells,
    buildMs: Math.round(buildMs),
    buildStagesMs: summary.timings,
    valueIndexMs,
    tokenizedIn: summary.tokenizedIn,
    buildToSqliteRead: Math.round((buildMs / sqliteReadMs) * 100) / 100,
    valueIndexToSqliteRead: Math.round((valueIndexMs / sqliteReadMs) * 100) / 100,
    valuesIndexed: summary.valuesIndexed,
    valuePolicies: summary.valuePolicies,
    indexMemoryMB,
    openRssDeltaMB: Math.round(openRssDeltaMB),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    kinds,
    k: K,
    machine: {
      node: process.version,
      cpu: cpus[0]?.model.trim() ?? 'unknown',
      cpus: cpus.length,
      loadAverage: {
        start: Math.round(loadStart * 100) / 100,
        end: Math.round((await import('node:os')).loadavg()[0] * 100) / 100,
      },
    },
    createdAt: new Date().toISOString(),
    totalMs: Math.round(now() - started),
  };
}

/** The headline numbers as text. */
export function formatFileBench(r: FileBenchReport): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = [
    `${r.file}: ${(r.sizeBytes / MiB).toFixed(1)} MiB, ${n(r.textCellsRead)} text cells`,
    `build ${n(r.buildMs)} ms (values + value index ${n(r.valueIndexMs)} ms, tokenized in ${r.tokenizedIn === 'worker' ? 'a worker' : r.tokenizedIn}); plain read of the text columns ${n(r.sqliteReadMs)} ms`,
    `build / read ${r.buildToSqliteRead} (value index / read ${r.valueIndexToSqliteRead}); values indexed ${n(r.valuesIndexed)}`,
    `memory: index ${r.indexMemoryMB ?? '?'} MB, file after open +${r.openRssDeltaMB} MB RSS, peak RSS ${n(r.peakRssMB)} MB`,
    '',
    'kind        n   p50 ms   p95 ms   max ms  p95 cpu  hit@5  hit@1  LIKE  partial',
    ...Object.entries(r.kinds).map(
      ([kind, k]) =>
        `${kind.padEnd(9)} ${String(k.n).padStart(3)} ${k.p50Ms.toFixed(1).padStart(8)} ${k.p95Ms.toFixed(1).padStart(8)} ${k.maxMs.toFixed(1).padStart(8)} ${k.p95CpuMs.toFixed(1).padStart(8)}  ${k.hitAt5.toFixed(2).padStart(5)}  ${k.hitAt1.toFixed(2).padStart(5)}  ${String(k.likeQueries).padStart(4)}  ${String(k.partialQueries).padStart(7)}`,
    ),
  ];
  if (r.valuePolicies.length > 0) {
    lines.push('', 'columns not fully indexed:');
    for (const p of r.valuePolicies) lines.push(`  ${p.table}.${p.column}: ${p.policy} (${p.note ?? ''})`);
  }
  return lines.join('\n') + '\n';
}
