// Charts drawn by Observable Plot (decision 062) from core's ChartData. Only this file imports
// Plot; the page loads it with the chart view, so the first page load does not carry it. Text from
// the database reaches the SVG as text nodes and attributes Plot sets, never as markup.

import * as Plot from '@observablehq/plot';
import type { ChartData, ChartPoint } from '../../core/charts/chart-data';

export interface DrawOptions {
  width: number;
  height: number;
  /** The colour of single-series marks (the page's accent). */
  accent: string;
  /** For Node, where there is no global document. */
  document?: Document;
}

/** Bars past this many get their labels turned so they do not overlap. */
const ROTATE_AFTER = 8;

/**
 * The chart as an SVG element (or a figure holding a legend and the SVG when there are series).
 * It reads as one image named by its description: Plot's labels on each group of marks ("bar",
 * "x-axis tick") are dropped, since ARIA does not allow a name on a group without a role.
 */
export function drawChart(data: ChartData, options: DrawOptions): SVGSVGElement | HTMLElement {
  const chart = plotChart(data, options);
  const svg = chart.tagName.toLowerCase() === 'svg' ? chart : chart.querySelector(':scope > svg');
  svg?.setAttribute('role', 'img');
  for (const g of svg?.querySelectorAll('g[aria-label]') ?? []) g.removeAttribute('aria-label');
  return chart;
}

function plotChart(data: ChartData, options: DrawOptions): SVGSVGElement | HTMLElement {
  const { width, height, accent } = options;
  const series = data.seriesLabel !== undefined;
  const points: Array<Omit<ChartPoint, 'x'> & { x: string | number | Date }> = data.xIsDate
    ? data.points.map((p) => ({ ...p, x: asDate(p.x) }))
    : data.points;
  const manyBars = new Set(points.map((p) => String(p.x))).size > ROTATE_AFTER;
  const common = {
    ...(options.document ? { document: options.document } : {}),
    width,
    height,
    marginBottom: manyBars ? 70 : 40,
    marginLeft: 60,
    ariaLabel: data.description,
    style: { background: 'transparent', color: 'currentColor', fontSize: '12px' },
    y: { label: data.yLabel, grid: true },
    color: series ? { legend: true, scheme: 'tableau10' as const, label: data.seriesLabel } : undefined,
  };
  // Categories in the result's order (an ORDER BY the person or the model wrote), not sorted.
  const categories = [...new Set(points.map((p) => p.x))];
  const x = { label: data.xLabel, domain: categories, ...(manyBars ? { tickRotate: -35 } : {}) };
  switch (data.type) {
    case 'bar':
      return Plot.plot({
        ...common,
        x,
        marks: [Plot.barY(points, { x: 'x', y: 'y', fill: accent }), Plot.ruleY([0])],
      });
    case 'stacked-bar':
      return Plot.plot({
        ...common,
        x,
        marks: [Plot.barY(points, { x: 'x', y: 'y', fill: 'series' }), Plot.ruleY([0])],
      });
    case 'grouped-bar':
      return Plot.plot({
        ...common,
        fx: { label: data.xLabel, domain: categories, ...(manyBars ? { tickRotate: -35 } : {}) },
        x: { axis: null },
        marks: [Plot.barY(points, { fx: 'x', x: 'series', y: 'y', fill: 'series' }), Plot.ruleY([0])],
      });
    case 'line':
      return Plot.plot({
        ...common,
        x: { label: data.xLabel },
        marks: [
          Plot.lineY(points, {
            x: 'x',
            y: 'y',
            ...(series ? { stroke: 'series' } : { stroke: accent }),
            marker: points.length <= 60 ? 'circle' : undefined,
          }),
        ],
      });
    case 'scatter':
      return Plot.plot({
        ...common,
        x: { label: data.xLabel, grid: true },
        marks: [Plot.dot(points, { x: 'x', y: 'y', r: 2.5, fill: accent, fillOpacity: 0.7 })],
      });
    case 'histogram':
      return Plot.plot({
        ...common,
        x: { label: data.xLabel },
        marks: [Plot.rectY(points, { ...Plot.binX({ y: 'count' }, { x: 'x' }), fill: accent }), Plot.ruleY([0])],
      });
  }
}

/** ISO text, or a year as a number or text, as a date on the time axis. */
function asDate(x: string | number): Date {
  const year = typeof x === 'number' ? x : /^\d{4}$/.test(x) ? Number(x) : null;
  return year !== null ? new Date(Date.UTC(year, 0, 1)) : new Date(x);
}

/**
 * The chart's SVG as a standalone file: its namespace declared, its description as a title, and the
 * page's text colour and background written in (in the page they come from CSS).
 */
export function svgFile(
  chart: SVGSVGElement | HTMLElement,
  description: string,
  colours: { ink: string; paper: string },
): string {
  // With series, Plot returns a figure: the legend's swatches, then the chart's own SVG.
  const svg = chart.tagName.toLowerCase() === 'svg' ? chart : chart.querySelector(':scope > svg');
  if (!svg) throw new Error('The chart has no SVG.');
  const copy = svg.cloneNode(true) as SVGSVGElement;
  // XMLSerializer declares the SVG namespace itself (setting xmlns too would repeat it).
  const title = copy.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'title');
  title.textContent = description;
  copy.insertBefore(title, copy.firstChild);
  copy.style.color = colours.ink;
  copy.style.background = colours.paper;
  return new XMLSerializer().serializeToString(copy);
}
