/**
 * Helpers for scripts/bench-open.ts: command-line options, the deterministic benchmark
 * database, the probe that runs inside the page, and the statistics and formatting of the
 * results. Kept apart from the orchestration (build, server, browser) so each part reads on
 * its own.
 */
import { existsSync, mkdirSync, openSync, readSync, closeSync, statSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { mulberry32 } from '../src/core/random';

/** "MB" in this benchmark is a MiB: the file is at least `mb * MIB` bytes. */
export const MIB = 1024 * 1024;

/**
 * Written into the file's user_version: a file left in the temp folder by an older generator
 * is rebuilt instead of reused. Bump it whenever the generated data changes.
 */
export const GENERATOR_VERSION = 1;

export const BENCH_TABLE = 'events';
/** Columns only the benchmark's tables have (events, users), so the starter query's grid is told apart from the demo's. */
export const BENCH_RESULT_COLUMNS = ['note', 'signup_day'] as const;

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

export interface BenchOptions {
  mb: number;
  runs: number;
  out: string;
  build: boolean;
  port: number;
  /** Also time the worker's steps (open, quick_check, introspect) with the app's engine in Node. */
  nodeSteps: boolean;
  /** Also build the retrieval indexes (Tools panel) once and time it: `npm run bench:browser`. */
  index: boolean;
}

export const USAGE = `Usage: npx tsx scripts/bench-open.ts [--mb 100] [--runs 3] [--out reports/bench-open.json] [--no-build] [--port 4390] [--no-node-steps] [--index]`;

export function parseArgs(argv: readonly string[]): BenchOptions {
  const opts: BenchOptions = {
    mb: 100,
    runs: 3,
    out: 'reports/bench-open.json',
    build: true,
    port: 4390,
    nodeSteps: true,
    index: false,
  };
  const positive = (flag: string, raw: string | undefined): number => {
    const n = Number(raw);
    if (!raw || !Number.isFinite(n) || n <= 0)
      throw new Error(`${flag} needs a positive number (got ${raw ?? 'nothing'}).\n${USAGE}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    // Accept both "--mb 100" and "--mb=100".
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--mb':
        opts.mb = positive(flag, value());
        break;
      case '--runs':
        opts.runs = Math.round(positive(flag, value()));
        break;
      case '--port':
        opts.port = Math.round(positive(flag, value()));
        break;
      case '--out': {
        const v = value();
        if (!v) throw new Error(`--out needs a path.\n${USAGE}`);
        opts.out = v;
        break;
      }
      case '--no-build':
        opts.build = false;
        break;
      case '--no-node-steps':
        opts.nodeSteps = false;
        break;
      case '--index':
        opts.index = true;
        break;
      case '-h':
      case '--help':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`Unknown option ${arg}.\n${USAGE}`);
    }
  }
  return opts;
}

// ---------------------------------------------------------------------------
// The benchmark database
// ---------------------------------------------------------------------------

const WORDS = [
  'alpha',
  'basket',
  'cart',
  'checkout',
  'coupon',
  'delivery',
  'discount',
  'express',
  'gift',
  'invoice',
  'login',
  'mobile',
  'newsletter',
  'order',
  'payment',
  'refund',
  'retry',
  'return',
  'search',
  'session',
  'shipping',
  'signup',
  'survey',
  'ticket',
  'upgrade',
  'voucher',
  'warehouse',
  'wishlist',
  'promo',
  'review',
];
const KINDS = ['view', 'click', 'add_to_cart', 'purchase', 'refund', 'login', 'logout', 'search'];
const COUNTRIES = ['DE', 'FR', 'US', 'GB', 'NL', 'SE', 'PL', 'ES', 'IT', 'JP', 'BR', 'CA'];
const USERS = 20_000;
const EPOCH_MS = Date.UTC(2024, 0, 1);

export interface BenchDb {
  path: string;
  bytes: number;
  sizeMB: number;
  reused: boolean;
  generateMs: number | null;
}

export const benchDbPath = (mb: number): string => join(tmpdir(), `dowser-bench-${mb}mb.sqlite`);

/**
 * Reuse check without opening the database: the SQLite header must say "this generator
 * version" (user_version at offset 60) and its page count times page size must be the file's
 * size, which also catches a file cut short by an interrupted write.
 */
function isReusable(path: string, targetBytes: number): boolean {
  if (!existsSync(path)) return false;
  const size = statSync(path).size;
  if (size < targetBytes || size > targetBytes * 1.05) return false;
  const head = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1', 0, 16) !== 'SQLite format 3\0') return false;
  const rawPageSize = head.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  return head.readUInt32BE(28) * pageSize === size && head.readUInt32BE(60) === GENERATOR_VERSION;
}

/**
 * Returns a database of at least `mb` MiB in the OS temp folder (never in the repo: it is
 * large and generated), generating it the first time. Rows are added until SQLite's own page
 * count reaches the target, so the size follows from the data and is the same on every run.
 */
export async function ensureBenchDb(mb: number, log: (msg: string) => void): Promise<BenchDb> {
  const path = benchDbPath(mb);
  const targetBytes = Math.ceil(mb * MIB);
  if (isReusable(path, targetBytes)) {
    const bytes = statSync(path).size;
    return { path, bytes, sizeMB: bytes / MIB, reused: true, generateMs: null };
  }
  log(`generating ${mb} MB benchmark database at ${path} …`);
  const t0 = performance.now();
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  try {
    const rand = mulberry32(0xb3e4c);
    const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

    db.run(`PRAGMA user_version = ${GENERATOR_VERSION}`);
    db.run(
      `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, country TEXT, signup_day TEXT)`,
    );
    db.run(
      `CREATE TABLE events (id INTEGER PRIMARY KEY, ts TEXT NOT NULL, kind TEXT NOT NULL, user_id INTEGER REFERENCES users(id), amount REAL, note TEXT)`,
    );
    // Created before the rows so the size checks below include it (a user's real file has its indexes).
    db.run(`CREATE INDEX events_user_ts ON events (user_id, ts)`);

    // One transaction and prepared statements: sql.js would otherwise sync the in-memory file per row.
    db.run('BEGIN');
    const addUser = db.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?)');
    for (let id = 1; id <= USERS; id++) {
      const name = `${pick(WORDS)}_${pick(WORDS)}_${id}`;
      addUser.run([id, name, `${name}@example.test`, pick(COUNTRIES), day(EPOCH_MS - int(0, 1500) * 86_400_000)]);
    }
    addUser.free();

    const addEvent = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)');
    const pageSize = Number(db.exec('PRAGMA page_size')[0].values[0][0]);
    const sizeNow = () => Number(db.exec('PRAGMA page_count')[0].values[0][0]) * pageSize;
    let id = 0;
    let tsMs = EPOCH_MS;
    // Checked every 2,000 rows: cheap, and the overshoot stays far below 1%.
    while (sizeNow() < targetBytes) {
      for (let k = 0; k < 2000; k++) {
        id++;
        tsMs += int(1, 60) * 1000;
        const kind = pick(KINDS);
        const amount = kind === 'purchase' || kind === 'refund' ? Math.round(rand() * 50_000) / 100 : null;
        const note = Array.from({ length: int(3, 24) }, () => pick(WORDS)).join(' ');
        addEvent.run([
          id,
          new Date(tsMs).toISOString().slice(0, 19).replace('T', ' '),
          kind,
          int(1, USERS),
          amount,
          note,
        ]);
      }
    }
    addEvent.free();
    db.run('COMMIT');
    const bytes = db.export();
    mkdirSync(tmpdir(), { recursive: true });
    // Written under a temporary name and renamed, so an interrupted run never leaves a half file to reuse.
    const partial = `${path}.partial-${process.pid}`;
    writeFileSync(partial, bytes);
    renameSync(partial, path);
    const generateMs = Math.round(performance.now() - t0);
    log(
      `generated ${(bytes.length / MIB).toFixed(1)} MB (${id.toLocaleString('en-US')} events) in ${(generateMs / 1000).toFixed(1)} s`,
    );
    return { path, bytes: bytes.length, sizeMB: bytes.length / MIB, reused: false, generateMs };
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------
// The in-page probe
// ---------------------------------------------------------------------------

/** What the probe hands back; every time is performance.now() in the page, in ms. */
export interface ProbeResult {
  supports: { longtask: boolean; longAnimationFrame: boolean };
  /** performance.timeOrigin: with it, page times become epoch ms comparable with the test's clock. */
  timeOrigin: number;
  installedAt: number;
  stoppedAt: number;
  /** The file input's change event: the moment the app starts opening (its readyMs starts here). */
  changeAt: number | null;
  /** When the benchmark file's tab first showed each data-status. */
  status: Partial<Record<'reading' | 'opening' | 'ready', number>>;
  readyMsAttr: number | null;
  openMsAttr: number | null;
  /** The explorer shows a row count for the benchmark table. */
  schemaAt: number | null;
  /** The starter query's rows are in the result grid. */
  firstRowsAt: number | null;
  longTasks: { start: number; duration: number }[];
  longFrames: LongFrame[];
  frames: number;
  maxFrameGap: number;
  maxFrameGapAt: number | null;
  /** Worker.postMessage calls: their synchronous cost on the main thread (structured clone). */
  posts: { start: number; duration: number }[];
}

export interface LongFrame {
  start: number;
  duration: number;
  blockingDuration: number;
  scripts: { invoker: string; invokerType: string; sourceURL: string; sourceFunctionName: string; duration: number }[];
}

/**
 * JavaScript source that installs the probe in the page as `window.__dowserBench`.
 *
 * It is a string, not a function handed to page.evaluate: tsx compiles this file with
 * esbuild's keepNames, which wraps inner functions in a `__name(...)` helper that exists in
 * Node but not in the page, so a serialized function would throw there.
 *
 * What it records, all in page time:
 * - PerformanceObserver 'longtask' (main-thread tasks over 50 ms) and, where Chromium has it,
 *   'long-animation-frame' with script attribution, to say which callback blocked;
 * - a requestAnimationFrame loop: the longest gap between two frames is how long the page
 *   could not paint (a frozen progress bar), whether or not one task caused it;
 * - a MutationObserver that stamps each data-status of the file's tab, the explorer's row
 *   count and the starter query's grid, at the DOM commit itself rather than at Playwright's
 *   next poll;
 * - a wrapper around Worker.prototype.postMessage, timing the structured clone of the bytes
 *   sent to the database worker (synchronous, on the main thread).
 */
export function probeSource(fileName: string, table: string): string {
  const cfg = JSON.stringify({ fileName, table, resultColumns: BENCH_RESULT_COLUMNS });
  return String.raw`(() => {
  const cfg = ${cfg};
  const now = () => performance.now();
  const s = {
    supports: { longtask: false, longAnimationFrame: false },
    timeOrigin: performance.timeOrigin, installedAt: now(), stoppedAt: 0, changeAt: null, status: {}, readyMsAttr: null, openMsAttr: null,
    schemaAt: null, firstRowsAt: null, longTasks: [], longFrames: [], frames: 0, maxFrameGap: 0, maxFrameGapAt: null, posts: [],
  };
  let running = true;
  const observers = [];
  const observe = (type, onEntry) => {
    if (!(PerformanceObserver.supportedEntryTypes || []).includes(type)) return false;
    const o = new PerformanceObserver((list) => list.getEntries().forEach(onEntry));
    o.observe({ type, buffered: false });
    observers.push([o, onEntry]);
    return true;
  };
  s.supports.longtask = observe('longtask', (e) => s.longTasks.push({ start: e.startTime, duration: e.duration }));
  s.supports.longAnimationFrame = observe('long-animation-frame', (e) => s.longFrames.push({
    start: e.startTime, duration: e.duration, blockingDuration: e.blockingDuration || 0,
    scripts: (e.scripts || []).map((x) => ({ invoker: x.invoker, invokerType: x.invokerType, sourceURL: x.sourceURL, sourceFunctionName: x.sourceFunctionName, duration: x.duration })),
  }));

  let last = null;
  const frame = (t) => {
    if (!running) return;
    if (last !== null && t - last > s.maxFrameGap) { s.maxFrameGap = t - last; s.maxFrameGapAt = last; }
    last = t;
    s.frames++;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);

  const input = document.querySelector('[data-testid="file-input"]');
  // Capture phase on window: runs before React's handler, which starts the app's own clock.
  const onChange = (e) => { if (e.target === input && s.changeAt === null) s.changeAt = now(); };
  window.addEventListener('change', onChange, true);

  const check = () => {
    const t = now();
    for (const tab of document.querySelectorAll('.db-tab')) {
      if (!(tab.textContent || '').includes(cfg.fileName)) continue;
      const st = tab.getAttribute('data-status');
      if (st && !(st in s.status)) s.status[st] = t;
      if (st === 'ready' && s.readyMsAttr === null) {
        s.readyMsAttr = Number(tab.getAttribute('data-ready-ms'));
        s.openMsAttr = Number(tab.getAttribute('data-open-ms'));
      }
    }
    if (s.schemaAt === null) {
      const count = document.querySelector('.table-list li[data-table="' + cfg.table + '"] .table-item .small');
      if (count && /\d/.test(count.textContent || '')) s.schemaAt = t;
    }
    if (s.firstRowsAt === null && s.status.ready !== undefined) {
      const grid = document.querySelector('[role="table"][aria-label="Query results"]');
      const ours = grid && cfg.resultColumns.some((c) => grid.querySelector('[role="columnheader"][title="' + c + '"]'));
      if (ours && grid.querySelectorAll('[role="row"]').length > 1) s.firstRowsAt = t;
    }
  };
  const mo = new MutationObserver(check);
  mo.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-status', 'data-ready-ms', 'title'] });

  const originalPost = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (...args) {
    const t = now();
    try { return originalPost.apply(this, args); } finally { s.posts.push({ start: t, duration: now() - t }); }
  };

  window.__dowserBench = {
    state: s,
    done: (needFirstRows) => s.status.ready !== undefined && s.schemaAt !== null && (!needFirstRows || s.firstRowsAt !== null),
    stop: () => {
      running = false;
      for (const [o, onEntry] of observers) { o.takeRecords().forEach(onEntry); o.disconnect(); }
      mo.disconnect();
      window.removeEventListener('change', onChange, true);
      Worker.prototype.postMessage = originalPost;
      s.stoppedAt = now();
      return JSON.parse(JSON.stringify(s));
    },
  };
})()`;
}

// ---------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------

export interface RunResult {
  run: number;
  /** The machine's 1-minute load average when the run started: above the CPU count, expect noise. */
  loadAverage1m: number;
  /** The app's data-ready-ms: file picked to queryable database. */
  readyMs: number;
  /** The app's data-open-ms: header checks + new SQL.Database + sanity query, in the worker. */
  openMs: number;
  /** File picked to the explorer's row count for the benchmark table (quick_check and introspection run first). */
  schemaMs: number | null;
  /** Ready to the row count: the worker's background work between the two. */
  schemaAfterReadyMs: number | null;
  /** File picked to the starter query's rows in the grid. */
  firstRowsMs: number | null;
  /** Test-side wall time from setInputFiles to the ready tab: a cross-check of readyMs. */
  wallReadyMs: number;
  /** Where wallReadyMs and readyMs differ: before the app's clock starts, and after it stops. */
  wallOverhead: {
    /** setInputFiles called to the input's change event (Playwright, CDP, Chromium snapshotting the file). */
    setInputFilesToChangeMs: number | null;
    /** The tab turned ready to Playwright noticing it. */
    readyToNoticedMs: number | null;
  };
  readyMsPerMB: number;
  openMsPerMB: number;
  /** Breakdown of readyMs from the tab's status stamps. */
  phases: {
    /** Change event to data-status="opening": reading the File into memory on the main thread. */
    readMs: number | null;
    /** "opening" to "ready": postMessage to the worker, the worker's open, the answer, React's commit. */
    openingToReadyMs: number | null;
    /** openingToReadyMs minus the worker's openMs: transfer and messaging overhead. */
    transferAndOverheadMs: number | null;
    /** Longest synchronous Worker.postMessage on the main thread (the structured clone of the bytes). */
    maxPostMessageMs: number;
  };
  longTasks: { count: number; maxMs: number; totalMs: number };
  maxFrameGapMs: number;
  framesPerSecond: number;
  /** The longest animation frames with the scripts Chromium blames for them. */
  worstFrames: LongFrame[];
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const since = (from: number | null, to: number | null | undefined): number | null =>
  from === null || to === null || to === undefined ? null : round1(to - from);

/** The test's side of a run: epoch ms (performance.timeOrigin + now()) around the wait for the ready tab. */
export interface WallClock {
  startEpochMs: number;
  readyNoticedEpochMs: number;
}

export function summarizeRun(
  run: number,
  p: ProbeResult,
  sizeMB: number,
  wall: WallClock,
  loadAverage1m: number,
): RunResult {
  if (p.readyMsAttr === null || p.openMsAttr === null)
    throw new Error('The probe saw no ready tab with data-ready-ms and data-open-ms.');
  const start = p.changeAt;
  const openingToReady = since(p.status.opening ?? null, p.status.ready);
  // Only what happened after the file was picked: the demo's work before it is not ours to count.
  const window = (t: number) => start === null || t >= start - 100;
  const tasks = p.longTasks.filter((t) => window(t.start + t.duration));
  return {
    run,
    loadAverage1m: round2(loadAverage1m),
    readyMs: p.readyMsAttr,
    openMs: p.openMsAttr,
    schemaMs: since(start, p.schemaAt),
    schemaAfterReadyMs: since(p.status.ready ?? null, p.schemaAt),
    firstRowsMs: since(start, p.firstRowsAt),
    wallReadyMs: Math.round(wall.readyNoticedEpochMs - wall.startEpochMs),
    wallOverhead: {
      setInputFilesToChangeMs: since(wall.startEpochMs, start === null ? null : p.timeOrigin + start),
      readyToNoticedMs:
        p.status.ready === undefined ? null : round1(wall.readyNoticedEpochMs - (p.timeOrigin + p.status.ready)),
    },
    readyMsPerMB: round2(p.readyMsAttr / sizeMB),
    openMsPerMB: round2(p.openMsAttr / sizeMB),
    phases: {
      readMs: since(start, p.status.opening),
      openingToReadyMs: openingToReady,
      transferAndOverheadMs: openingToReady === null ? null : round1(openingToReady - p.openMsAttr),
      maxPostMessageMs: round1(Math.max(0, ...p.posts.map((x) => x.duration))),
    },
    longTasks: {
      count: tasks.length,
      maxMs: round1(Math.max(0, ...tasks.map((t) => t.duration))),
      totalMs: round1(tasks.reduce((sum, t) => sum + t.duration, 0)),
    },
    maxFrameGapMs: round1(p.maxFrameGap),
    framesPerSecond: round1(p.frames / ((p.stoppedAt - p.installedAt) / 1000)),
    worstFrames: [...p.longFrames]
      .filter((f) => window(f.start + f.duration))
      .sort((a, b) => b.duration - a.duration)
      .slice(0, 5)
      .map((f) => ({
        ...f,
        start: round1(f.start - (start ?? 0)),
        duration: round1(f.duration),
        blockingDuration: round1(f.blockingDuration),
      })),
  };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : round1((sorted[mid - 1] + sorted[mid]) / 2);
}

/** Median of every number in the runs, by the same paths (e.g. "longTasks.maxMs"). */
export function medians(runs: readonly RunResult[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  const walk = (value: unknown, path: string, pick: (r: RunResult) => unknown) => {
    if (typeof value === 'number' || value === null) {
      if (path === 'run' || path === 'loadAverage1m') return;
      out[path] = median(runs.map(pick).filter((v): v is number => typeof v === 'number'));
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const key of Object.keys(value)) {
        walk(
          (value as Record<string, unknown>)[key],
          path ? `${path}.${key}` : key,
          (r) => (pick(r) as Record<string, unknown> | null)?.[key],
        );
      }
    }
  };
  if (runs.length) walk(runs[0], '', (r) => r);
  return out;
}

/** A plain fixed-width table: the numbers a person wants to compare across runs. */
export function formatTable(runs: readonly RunResult[], med: Record<string, number | null>): string {
  const head = [
    'run',
    'load',
    'ready ms',
    'ms/MB',
    'worker open',
    'read',
    'open→ready',
    'postMessage',
    'schema ms',
    'rows ms',
    'long tasks n/max/total',
    'max frame gap',
  ];
  const row = (label: string, load: string, get: (key: string) => number | null) => {
    const f = (k: string) => (get(k) === null ? '—' : String(get(k)));
    return [
      label,
      load,
      f('readyMs'),
      f('readyMsPerMB'),
      f('openMs'),
      f('phases.readMs'),
      f('phases.openingToReadyMs'),
      f('phases.maxPostMessageMs'),
      f('schemaMs'),
      f('firstRowsMs'),
      `${f('longTasks.count')}/${f('longTasks.maxMs')}/${f('longTasks.totalMs')}`,
      f('maxFrameGapMs'),
    ];
  };
  const lines = runs.map((r) => row(String(r.run), r.loadAverage1m.toFixed(1), (k) => medians([r])[k] ?? null));
  lines.push(row('median', '', (k) => med[k] ?? null));
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(head), fmt(widths.map((w) => '-'.repeat(w))), ...lines.map(fmt)].join('\n');
}
