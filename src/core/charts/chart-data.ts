// The points a chart draws, from a result and a choice of columns (issue 24): grouped and
// aggregated here, in core, so the page and the CLI draw the same numbers, and described in words
// for people who do not see the chart.

import { numberOf } from '../results/row-view';
import type { SqlValue } from '../types';
import { profileColumns, type Aggregate, type ChartChoice, type ChartType } from './choose-chart';

export interface ChartPoint {
  /** A category's text, a date's text, or a number. */
  x: string | number;
  y: number;
  series?: string;
}

export interface ChartData {
  type: ChartType;
  xLabel: string;
  yLabel: string;
  seriesLabel?: string;
  /** x holds dates (ISO text or years): drawn on a time axis. */
  xIsDate: boolean;
  points: ChartPoint[];
  /** Rows left out: no number in y, or past the limit of points drawn. */
  skipped: number;
  /** True when the points were cut to `MAX_POINTS`. */
  sampled: boolean;
  /** The chart in one or two sentences. */
  description: string;
}

/** A chart draws at most this many marks: an SVG of 10,000 points blocks the page (decision 062). */
export const MAX_POINTS = 2_000;

const label = (v: SqlValue): string =>
  v === null ? 'NULL' : v instanceof Uint8Array ? `BLOB ${v.length} B` : String(v);

/** Numbers, dates and categories for one choice of columns; the choice's type decides the shape. */
export function chartData(
  columns: readonly string[],
  rows: readonly SqlValue[][],
  choice: ChartChoice & { type: ChartType },
): ChartData {
  const { type } = choice;
  const x = choice.x ?? 0;
  const yCol = type === 'histogram' ? x : (choice.y ?? x);
  const aggregate: Aggregate = type === 'histogram' ? 'none' : (choice.aggregate ?? 'none');
  const xIsDate =
    type === 'line' &&
    profileColumns(
      [columns[x]],
      rows.map((r) => [r[x]]),
    )[0].kind === 'date';
  let skipped = 0;
  const raw: ChartPoint[] = [];
  for (const row of rows) {
    const y = aggregate === 'count' ? 1 : numberOf(row[yCol]);
    if (y === null || (type !== 'histogram' && row[x] === null && type !== 'scatter')) {
      skipped++;
      continue;
    }
    const xValue: string | number =
      type === 'scatter' || type === 'histogram' ? (numberOf(row[x]) ?? NaN) : label(row[x]);
    if (typeof xValue === 'number' && Number.isNaN(xValue)) {
      skipped++;
      continue;
    }
    raw.push({ x: xValue, y, ...(choice.series !== undefined ? { series: label(row[choice.series]) } : {}) });
  }
  let points = aggregate === 'none' ? raw : aggregatePoints(raw, aggregate);
  if (type === 'line') points = [...points].sort((a, b) => (a.x < b.x ? -1 : a.x > b.x ? 1 : 0));
  const sampled = points.length > MAX_POINTS;
  if (sampled) {
    skipped += points.length - MAX_POINTS;
    // Evenly spaced, so a line keeps its shape and a scatter its spread.
    const step = points.length / MAX_POINTS;
    points = Array.from({ length: MAX_POINTS }, (_, i) => points[Math.floor(i * step)]);
  }
  const data: Omit<ChartData, 'description'> = {
    type,
    xLabel: columns[x],
    yLabel: type === 'histogram' ? 'rows' : aggregateLabel(columns[yCol], aggregate),
    ...(choice.series !== undefined ? { seriesLabel: columns[choice.series] } : {}),
    xIsDate,
    points,
    skipped,
    sampled,
  };
  return { ...data, description: describeChart(data) };
}

function aggregateLabel(name: string, aggregate: Aggregate): string {
  return aggregate === 'none' ? name : aggregate === 'count' ? 'rows' : `${aggregate} of ${name}`;
}

/** One point per x (and series): the rows' y summed, averaged or counted. */
function aggregatePoints(points: ChartPoint[], aggregate: Aggregate): ChartPoint[] {
  const groups = new Map<string, { point: ChartPoint; total: number; n: number }>();
  for (const p of points) {
    const key = `${typeof p.x}:${p.x}\u0000${p.series ?? ''}`;
    const g = groups.get(key);
    if (g) {
      g.total += p.y;
      g.n++;
    } else groups.set(key, { point: { ...p }, total: p.y, n: 1 });
  }
  return [...groups.values()].map(({ point, total, n }) => ({
    ...point,
    y: aggregate === 'mean' ? total / n : aggregate === 'count' ? n : total,
  }));
}

const TYPE_NAMES: Record<ChartType, string> = {
  bar: 'Bar chart',
  line: 'Line chart',
  'grouped-bar': 'Grouped bar chart',
  'stacked-bar': 'Stacked bar chart',
  scatter: 'Scatter plot',
  histogram: 'Histogram',
};

const short = (v: string | number) => {
  const s = typeof v === 'number' ? String(Math.round(v * 100) / 100) : v;
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
};

/** What the chart shows, for its accessible description and the Markdown export. */
export function describeChart(data: Omit<ChartData, 'description'>): string {
  const { points } = data;
  const what = `${TYPE_NAMES[data.type]} of ${data.yLabel} by ${data.xLabel}${data.seriesLabel ? `, one ${data.type === 'line' ? 'line' : 'colour'} per ${data.seriesLabel}` : ''}`;
  if (points.length === 0) return `${what}: nothing to draw.`;
  const cut = data.sampled ? ` (${points.length} of ${points.length + data.skipped} points drawn)` : '';
  if (data.type === 'histogram' || data.type === 'scatter') {
    // A loop, not Math.min(...xs): spread arguments overflow the stack past about 100,000.
    let min = Infinity;
    let max = -Infinity;
    for (const p of points) {
      min = Math.min(min, p.x as number);
      max = Math.max(max, p.x as number);
    }
    return `${what}: ${points.length} rows, ${data.xLabel} from ${short(min)} to ${short(max)}${cut}.`;
  }
  let high = points[0];
  let low = points[0];
  for (const p of points) {
    if (p.y > high.y) high = p;
    if (p.y < low.y) low = p;
  }
  if (high.y === low.y) return `${what}: ${points.length} points, all ${short(high.y)}${cut}.`;
  const at = (p: ChartPoint) => `${short(p.x)}${p.series !== undefined ? ` (${short(p.series)})` : ''}, ${short(p.y)}`;
  return `${what}: ${points.length} points; highest ${at(high)}; lowest ${at(low)}${cut}.`;
}
