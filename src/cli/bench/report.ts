// The bench report: the JSON shape issue 3 asks for (plus extras that explain the numbers), the
// targets it sets, and the text table `dowser bench` prints. A missed target is a finding, not
// a failure: the report is the product.

import type { SchemaBench } from './schema-bench';
import type { ValueSearchBench } from './value-search';
import type { ValueDbInfo } from './value-db';

export interface BenchReport {
  valueIndex: ValueSearchBench['valueIndex'];
  searchValue: ValueSearchBench['searchValue'];
  joinPath: SchemaBench['joinPath'];
  introspect: SchemaBench['introspect'] & { tables: number; columns: number; foreignKeys: number };
  promptTokens: SchemaBench['promptTokens'];
  /** The generated value database. */
  data: ValueDbInfo & { seed: number; reused: boolean; cachePath: string | null };
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

/** Issue 3's targets. */
export const TARGETS: Target[] = [
  { metric: 'valueIndex.valuesPerSec', op: '>=', value: 100_000, read: (r) => r.valueIndex.valuesPerSec },
  { metric: 'searchValue.exact.hitAt1', op: '>=', value: 1, read: (r) => r.searchValue.exact.hitAt1 },
  { metric: 'searchValue.typo.hitAt5', op: '>=', value: 0.95, read: (r) => r.searchValue.typo.hitAt5 },
  { metric: 'searchValue.typo.p95', op: '<=', value: 50, unit: 'ms', read: (r) => r.searchValue.typo.p95 },
  { metric: 'searchValue.prefix.hitAt5', op: '>=', value: 0.9, read: (r) => r.searchValue.prefix.hitAt5 },
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

/** Every headline number with its target and PASS/MISS, as aligned text. */
export function formatBenchReport(r: BenchReport): string {
  const byMetric = new Map(r.targets.map((t) => [t.metric, t]));
  const n = (x: number) => x.toLocaleString('en-US');
  const rows: Array<[string, string]> = [
    ['valueIndex.values', n(r.valueIndex.values)],
    ['valueIndex.extractMs', `${n(r.valueIndex.extractMs)} (cpu ${n(r.valueIndex.extractCpuMs)})`],
    ['valueIndex.buildMs', `${n(r.valueIndex.buildMs)} (cpu ${n(r.valueIndex.buildCpuMs)})`],
    ['valueIndex.valuesPerSec', n(r.valueIndex.valuesPerSec)],
    ['  on CPU time', n(r.valueIndex.valuesPerCpuSec)],
    ['valueIndex.endToEndValuesPerSec', n(r.valueIndex.endToEndValuesPerSec)],
    ['searchValue.exact.p50', `${r.searchValue.exact.p50} ms`],
    ['searchValue.exact.p95', `${r.searchValue.exact.p95} ms`],
    ['searchValue.exact.hitAt1', String(r.searchValue.exact.hitAt1)],
    ['searchValue.typo.p50', `${r.searchValue.typo.p50} ms`],
    ['searchValue.typo.p95', `${r.searchValue.typo.p95} ms`],
    ['searchValue.typo.hitAt5', String(r.searchValue.typo.hitAt5)],
    ['searchValue.prefix.p95', `${r.searchValue.prefix.p95} ms`],
    ['searchValue.prefix.hitAt5', String(r.searchValue.prefix.hitAt5)],
    ['  share of ambiguous prefixes', String(r.searchValue.prefix.ambiguous)],
    ['  hitAt5 of the other prefixes', String(r.searchValue.prefix.unambiguousHitAt5)],
    ['joinPath.p50', `${r.joinPath.p50} ms`],
    ['joinPath.p95', `${r.joinPath.p95} ms`],
    ['introspect.ms', `${n(r.introspect.ms)} ms`],
    ['promptTokens.tableSummary', n(r.promptTokens.tableSummary)],
    ['promptTokens.fullDDL', n(r.promptTokens.fullDDL)],
    ['promptTokens.ratio', String(r.promptTokens.ratio)],
  ];
  const table = rows.map(([metric, value]) => {
    const t = byMetric.get(metric);
    return [metric, value, t?.target ?? '', t ? (t.pass ? 'PASS' : 'MISS') : ''];
  });
  const header = ['metric', 'value', 'target', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const d = r.data;
  const misses = r.targets.filter((t) => !t.pass).length;
  return (
    [
      `value database: ${n(d.rows)} rows, ${n(d.distinctTextValues)} distinct text values, ${(d.sizeBytes / 2 ** 20).toFixed(1)} MiB, ` +
        `${d.reused ? `reused from ${d.cachePath} (built in ${n(d.buildMs)} ms)` : `built in ${n(d.buildMs)} ms`}`,
      `wide schema: ${r.wideSchema.tables} tables x ${r.wideSchema.columnsPerTable} columns, ${r.wideSchema.foreignKeys} foreign keys, built in ${n(r.wideSchema.buildMs)} ms`,
      `queries: ${r.searchValue.exact.queries} exact, ${r.searchValue.typo.queries} typo, ${r.searchValue.prefix.queries} prefix; ${r.joinPath.queries} join paths`,
      '',
      line(header),
      ...table.map(line),
      '',
      misses === 0 ? 'all targets met' : `${misses} of ${r.targets.length} targets missed`,
      `${r.machine.cpu} x${r.machine.cpus}, Node ${r.machine.node}, load average ${r.machine.loadAverage.start} -> ${r.machine.loadAverage.end}; total ${(r.totalMs / 1000).toFixed(1)} s`,
    ].join('\n') + '\n'
  );
}
