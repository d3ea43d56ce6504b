// Charts drawn by Observable Plot (decision 062) from core's ChartData. Only this file imports
// Plot; the page loads it with the chart view, so the first page load does not carry it. Text from
// the database reaches the SVG as text nodes and attributes Plot sets, never as markup.

import * as Plot from '@observablehq/plot';
import type { ChartData, ChartPoint } from '../../core/charts/chart-data';
import { svgXml } from './svg-xml';

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
/** Turned labels are cut to this many characters; about this many pixels each at 10 px. */
const LABEL_CHARS = 24;
const CHAR_WIDTH = 6;

const cutLabel = (v: unknown) => {
  const text = String(v);
  return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
};

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
  // Turned labels need room below the axis for the longest one (cut at LABEL_CHARS), then the
  // axis name under them.
  // A loop, not Math.max(...lengths): spread arguments overflow the stack past about 100,000.
  let longest = 0;
  for (const p of points) longest = Math.max(longest, Math.min(LABEL_CHARS, String(p.x).length));
  const turnedDepth = Math.round(longest * CHAR_WIDTH * Math.sin((35 * Math.PI) / 180)) + 16;
  const common = {
    ...(options.document ? { document: options.document } : {}),
    width,
    height,
    marginBottom: manyBars ? turnedDepth + 26 : 40,
    marginLeft: 60,
    ariaLabel: data.description,
    style: { background: 'transparent', color: 'currentColor', fontSize: '12px' },
    y: { label: data.yLabel, grid: true },
    color: series ? { legend: true, scheme: 'tableau10' as const, label: data.seriesLabel } : undefined,
  };
  // Categories in the result's order (an ORDER BY the person or the model wrote), not sorted.
  const categories = [...new Set(points.map((p) => p.x))];
  const turned = manyBars ? { tickRotate: -35, tickFormat: cutLabel, labelOffset: turnedDepth + 20 } : {};
  const x = { label: data.xLabel, domain: categories, ...turned };
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
        fx: { label: data.xLabel, domain: categories, ...turned },
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

/** Height of one row of the legend written into a standalone SVG. */
const LEGEND_ROW = 22;

/**
 * The chart's SVG as a standalone file: its namespace declared, its description as a title, the
 * page's text colour and background written in (in the page they come from CSS), and with series
 * the legend's swatches drawn above the chart (in the page they are HTML beside it). Written by
 * svg-xml.ts in the page and in Node alike, so any text from the database makes a file that parses.
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
  // The writer declares the SVG namespace itself (setting xmlns too would repeat it).
  const title = copy.ownerDocument.createElementNS(SVG_NS, 'title');
  title.textContent = description;
  copy.insertBefore(title, copy.firstChild);
  if (svg !== chart) addLegend(copy, swatchesOf(chart));
  copy.style.color = colours.ink;
  copy.style.background = colours.paper;
  return svgXml(copy);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Plot's legend: each swatch is a small SVG whose fill is the colour, beside its label. */
function swatchesOf(figure: Element): Array<{ colour: string; label: string }> {
  return Array.from(figure.querySelectorAll(':scope > div svg[fill]')).map((swatch) => ({
    colour: swatch.getAttribute('fill') ?? 'currentColor',
    label: swatch.parentElement?.textContent ?? '',
  }));
}

/** The swatches in rows above the chart: the view box grows upwards, the chart stays put. */
function addLegend(svg: SVGSVGElement, swatches: Array<{ colour: string; label: string }>): void {
  if (!swatches.length) return;
  const doc = svg.ownerDocument;
  const width = Number(svg.getAttribute('width')) || 640;
  const height = Number(svg.getAttribute('height')) || 400;
  // No text measuring in Node: about 6.5 px a character at 11 px, labels cut at 40 characters.
  const placed: Array<{ colour: string; label: string; x: number; row: number }> = [];
  let x = 10;
  let row = 0;
  for (const { colour, label } of swatches) {
    const shownLabel = label.length > 40 ? `${label.slice(0, 39)}…` : label;
    const itemWidth = 15 + 5 + shownLabel.length * 6.5 + 14;
    if (x > 10 && x + itemWidth > width) {
      x = 10;
      row++;
    }
    placed.push({ colour, label: shownLabel, x, row });
    x += itemWidth;
  }
  const top = LEGEND_ROW * (row + 1);
  const legend = doc.createElementNS(SVG_NS, 'g');
  legend.setAttribute('font-size', '11');
  legend.setAttribute('text-anchor', 'start');
  const make = (tag: string, attributes: Record<string, string | number>) => {
    const el = doc.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v));
    legend.append(el);
    return el;
  };
  for (const p of placed) {
    const y = -top + p.row * LEGEND_ROW + 4;
    make('rect', { x: p.x, y, width: 15, height: 15, fill: p.colour });
    make('text', { x: p.x + 20, y: y + 12 }).textContent = p.label;
  }
  svg.setAttribute('viewBox', `0 ${-top} ${width} ${height + top}`);
  svg.setAttribute('height', String(height + top));
  svg.insertBefore(legend, svg.firstChild?.nextSibling ?? null);
}
