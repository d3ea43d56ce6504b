// `--chart out.svg [--chart-type T] [--x COL] [--y COL] [--series COL] [--values A]`, shared by
// `dowser sql` and `dowser ask` (issue 24): the chart the page would propose for the rows (core's
// chooseChart), changed by the flags as the page's controls change it, written as a standalone SVG.

import { writeFileSync } from 'node:fs';
import { chartData } from '../core/charts/chart-data';
import { chooseChart, type ChartChoice } from '../core/charts/choose-chart';
import {
  AGGREGATES,
  applyChartChange,
  CHART_TYPES,
  isAggregate,
  isChartType,
  type ChartChange,
} from '../core/charts/chart-options';
import { visible } from '../core/format/visible';
import type { SqlValue } from '../core/types';
import { UsageError, type CliIo } from './command';

export const CHART_FLAGS = {
  chart: { type: 'string' },
  'chart-type': { type: 'string' },
  x: { type: 'string' },
  y: { type: 'string' },
  series: { type: 'string' },
  values: { type: 'string' },
} as const;

export const CHART_USAGE = `  --chart <file.svg>   also write the rows as a chart, a standalone SVG file: the chart the page
                       proposes for them (said on stderr with its reason), unless the flags
                       below choose; no file and exit 1 when no chart suits and none is chosen
  --chart-type <t>     ${CHART_TYPES.join(', ')}
  --x, --y, --series <column>  the columns drawn, by name (or 1-based number)
  --values <a>         ${AGGREGATES.join(', ')}: how rows with the same x are combined`;

/** What the chart flags asked for; null when there was no --chart. */
export interface ChartRequest {
  file: string;
  type?: string;
  x?: string;
  y?: string;
  series?: string;
  values?: string;
}

type ChartFlagValues = Partial<Record<keyof typeof CHART_FLAGS, string>>;

/** The request, checked before any work starts (a wrong type or aggregation is a usage error). */
export function parseChartFlags(v: ChartFlagValues): ChartRequest | null {
  const choosing = (['chart-type', 'x', 'y', 'series', 'values'] as const).find((f) => v[f] !== undefined);
  if (v.chart === undefined) {
    if (choosing) throw new UsageError(`--${choosing} chooses the chart of --chart <file.svg>: give --chart too`);
    return null;
  }
  if (!v.chart.trim()) throw new UsageError('--chart needs a file name, e.g. --chart chart.svg');
  const type = v['chart-type'];
  if (type !== undefined && !isChartType(type))
    throw new UsageError(`--chart-type is one of ${CHART_TYPES.join(', ')}, not "${type}"`);
  if (v.values !== undefined && !isAggregate(v.values))
    throw new UsageError(`--values is one of ${AGGREGATES.join(', ')}, not "${v.values}"`);
  return { file: v.chart, type, x: v.x, y: v.y, series: v.series, values: v.values };
}

/** A column named by the person: its exact name, else one name matching without case, else a 1-based number. */
function columnIndex(columns: readonly string[], name: string, flag: string): number {
  const exact = columns.indexOf(name);
  if (exact >= 0) return exact;
  const folded = columns.flatMap((c, i) => (c.toLowerCase() === name.toLowerCase() ? [i] : []));
  if (folded.length === 1) return folded[0];
  if (/^\d+$/.test(name) && Number(name) >= 1 && Number(name) <= columns.length) return Number(name) - 1;
  throw new UsageError(
    `${flag} "${visible(name)}" is not a column of the result; its columns: ${columns.map(visible).join(', ')}`,
  );
}

/** The proposed chart with the flags' changes. */
export function chartChoiceFor(
  request: ChartRequest,
  columns: readonly string[],
  rows: readonly SqlValue[][],
): { proposed: ChartChoice; choice: ChartChoice } {
  const proposed = chooseChart(columns, rows);
  const change: ChartChange = {};
  if (request.type !== undefined) change.type = request.type as ChartChange['type'];
  if (request.x !== undefined) change.x = columnIndex(columns, request.x, '--x');
  if (request.y !== undefined) change.y = columnIndex(columns, request.y, '--y');
  if (request.series !== undefined) change.series = columnIndex(columns, request.series, '--series');
  if (request.values !== undefined) change.aggregate = request.values as ChartChange['aggregate'];
  const changed = Object.keys(change).length > 0;
  return { proposed, choice: changed ? applyChartChange(proposed, change, columns.length) : proposed };
}

/**
 * Writes the chart and says on stderr what it shows; false (nothing written, the reason said)
 * when no chart suits the rows and the flags chose none.
 */
export async function writeChart(
  request: ChartRequest,
  result: { columns: readonly string[]; rows: readonly SqlValue[][]; truncated?: boolean },
  io: CliIo,
): Promise<boolean> {
  const { proposed, choice } = chartChoiceFor(request, result.columns, result.rows);
  if (choice.type === 'none') {
    io.stderr.write(`no chart written: ${visible(proposed.reason)} Choose one with --chart-type.\n`);
    return false;
  }
  const data = chartData(result.columns, result.rows, { ...choice, type: choice.type });
  // Plot and the DOM it draws into load only when a chart is asked for.
  const { chartSvgFile } = await import('../adapters/plot/node');
  writeFileSync(request.file, chartSvgFile(data));
  const why = choice === proposed ? `proposed: ${visible(proposed.reason)}` : 'as chosen';
  io.stderr.write(`chart written to ${visible(request.file)} (${why})\n  ${visible(data.description)}\n`);
  if (result.truncated) io.stderr.write('  it draws the rows fetched only; raise --max-rows for all of them\n');
  return true;
}
