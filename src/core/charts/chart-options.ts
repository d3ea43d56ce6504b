// The choices a person can make over a proposed chart (issue 24), in one place for the page's
// controls and the CLI's --chart-type/--x/--y/--series/--values flags: which types and
// aggregations exist, which types split into series, and how a change is applied to a choice.

import type { Aggregate, ChartChoice, ChartType } from './choose-chart';

export const CHART_TYPES: readonly ChartType[] = ['bar', 'grouped-bar', 'stacked-bar', 'line', 'scatter', 'histogram'];
export const AGGREGATES: readonly Aggregate[] = ['none', 'sum', 'mean', 'count'];
/** Types drawn with a colour per value of a series column. */
export const TYPES_WITH_SERIES: readonly ChartType[] = ['grouped-bar', 'stacked-bar', 'line'];

export const isChartType = (t: string): t is ChartType => (CHART_TYPES as readonly string[]).includes(t);
export const isAggregate = (a: string): a is Aggregate => (AGGREGATES as readonly string[]).includes(a);

/** What a person changed; what is left out stays as proposed. Columns are indices. */
export interface ChartChange {
  type?: ChartType | 'none';
  x?: number;
  y?: number;
  series?: number;
  aggregate?: Aggregate;
}

/**
 * The choice after a change. A type chosen where none was proposed starts from the first column
 * as x and the second as y; a series is kept only by a type that draws one.
 */
export function applyChartChange(choice: ChartChoice, change: ChartChange, columnCount: number): ChartChoice {
  const type = change.type ?? choice.type;
  const next: ChartChoice = {
    ...choice,
    ...change,
    type,
    x: change.x ?? choice.x ?? 0,
    y: change.y ?? choice.y ?? (columnCount > 1 ? 1 : 0),
  };
  if (type === 'none' || !TYPES_WITH_SERIES.includes(type)) delete next.series;
  return next;
}
