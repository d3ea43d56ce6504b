// The default bench's report: the generated file measured as `dowser bench --db` measures any
// file (file-bench.ts), schema work on the wide schema, the targets of issues 3 and 10, and the
// text table `dowser bench` prints. A missed target is a finding, not a failure: the report is
// the product.

import { formatFileBench, type FileBenchReport } from './file-bench';
import type { SchemaBench } from './schema-bench';
import type { RowOrder } from './shop-db';

export interface BenchReport {
  /** The generated shop database, measured as any file is. */
  values: FileBenchReport;
  joinPath: SchemaBench['joinPath'];
  introspect: SchemaBench['introspect'] & { tables: number; columns: number; foreignKeys: number };
  promptTokens: SchemaBench['promptTokens'];
  /** The generated shop database. */
  data: {
    mb: number;
    order: RowOrder;
    seed: number;
    rows: Record<string, number>;
    sizeBytes: number;
    buildMs: number;
    reused: boolean;
    cachePath: string | null;
  };
  /** The generated wide schema. */
  wideSchema: {
    tables: number;
    columnsPerTable: number;
    columns: number;
    foreignKeys: number;
    rowsPerTable: number;
    buildMs: number;
  };
  targets: TargetResult[];
  machine: {
    node: string;
    platform: string;
    arch: string;
    cpu: string;
    cpus: number;
    memoryGiB: number;
    /** 1-minute load average before and after the run: above the CPU count, timings are inflated. */
    loadAverage: { start: number; end: number };
  };
  createdAt: string;
  totalMs: number;
}

export interface Target {
  metric: string;
  op: '>=' | '<=';
  value: number;
  unit?: string;
  read(r: Omit<BenchReport, 'targets'>): number;
}

export interface TargetResult {
  metric: string;
  target: string;
  actual: number;
  pass: boolean;
}

const kind = (r: Omit<BenchReport, 'targets'>, name: string) => r.values.kinds[name];

/** Issue 10's targets on the shop database (every query kind), and issue 3's on schema work. */
export const TARGETS: Target[] = [
  ...['exact', 'typo1', 'typo2', 'prefix', 'code', 'freetext', 'late'].map(
    (name): Target => ({
      metric: `searchValue.${name}.p95Ms`,
      op: '<=',
      value: 50,
      unit: 'ms',
      read: (r) => kind(r, name)?.p95Ms ?? Infinity,
    }),
  ),
  { metric: 'searchValue.typo1.hitAt5', op: '>=', value: 0.95, read: (r) => kind(r, 'typo1')?.hitAt5 ?? 0 },
  { metric: 'searchValue.typo2.hitAt5', op: '>=', value: 0.85, read: (r) => kind(r, 'typo2')?.hitAt5 ?? 0 },
  { metric: 'searchValue.exact.hitAt1', op: '>=', value: 0.95, read: (r) => kind(r, 'exact')?.hitAt1 ?? 0 },
  { metric: 'build.toSqliteRead', op: '<=', value: 2, read: (r) => r.values.buildToSqliteRead },
  { metric: 'joinPath.p95', op: '<=', value: 1, unit: 'ms', read: (r) => r.joinPath.p95 },
  { metric: 'promptTokens.ratio', op: '<=', value: 0.1, read: (r) => r.promptTokens.ratio },
];

const targetText = (t: Target) => `${t.op} ${t.value}${t.unit ? ' ' + t.unit : ''}`;

export function checkTargets(r: Omit<BenchReport, 'targets'>): TargetResult[] {
  return TARGETS.map((t) => {
    const actual = t.read(r);
    return {
      metric: t.metric,
      target: targetText(t),
      actual,
      pass: t.op === '>=' ? actual >= t.value : actual <= t.value,
    };
  });
}

/** Every target with its value and PASS/MISS, after the file bench's own table. */
export function formatBenchReport(r: BenchReport): string {
  const header = ['metric', 'value', 'target', 'result'];
  const table = r.targets.map((t) => [t.metric, String(t.actual), t.target, t.pass ? 'PASS' : 'MISS']);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const d = r.data;
  const n = (x: number) => x.toLocaleString('en-US');
  const misses = r.targets.filter((t) => !t.pass).length;
  return (
    [
      `shop database: ${d.mb} MB requested, ${d.order} rows, seed ${d.seed}, ${(d.sizeBytes / 2 ** 20).toFixed(1)} MiB, ` +
        `${d.reused ? `reused from ${d.cachePath} (built in ${n(d.buildMs)} ms)` : `built in ${n(d.buildMs)} ms`}`,
      formatFileBench(r.values),
      `wide schema: ${r.wideSchema.tables} tables x ${r.wideSchema.columnsPerTable} columns, ${r.wideSchema.foreignKeys} foreign keys; ` +
        `introspection ${n(r.introspect.ms)} ms; join paths p50 ${r.joinPath.p50} ms over ${r.joinPath.queries}; ` +
        `prompt ${n(r.promptTokens.tableSummary)} of ${n(r.promptTokens.fullDDL)} tokens`,
      '',
      line(header),
      ...table.map(line),
      '',
      misses === 0 ? 'all targets met' : `${misses} of ${r.targets.length} targets missed`,
      `${r.machine.cpu} x${r.machine.cpus}, Node ${r.machine.node}, load average ${r.machine.loadAverage.start} -> ${r.machine.loadAverage.end}; total ${(r.totalMs / 1000).toFixed(1)} s`,
    ].join('\n') + '\n'
  );
}
