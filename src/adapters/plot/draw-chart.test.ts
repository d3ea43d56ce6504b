// @vitest-environment jsdom
// Each chart type drawn by Plot from core's points: an SVG named by the chart's description, one
// mark per point, database text as text (never markup), and a standalone file that parses.
import { describe, expect, it } from 'vitest';
import { chartData } from '../../core/charts/chart-data';
import type { ChartChoice, ChartType } from '../../core/charts/choose-chart';
import type { SqlValue } from '../../core/types';
import { drawChart, svgFile } from './draw-chart';

const options = { width: 640, height: 360, accent: '#1f6f5c' };
const draw = (columns: string[], rows: SqlValue[][], choice: ChartChoice & { type: ChartType }) => {
  const data = chartData(columns, rows, choice);
  return { data, chart: drawChart(data, options) };
};
const svgOf = (chart: Element) =>
  chart.tagName.toLowerCase() === 'svg' ? chart : chart.querySelector(':scope > svg')!;

describe('drawChart', () => {
  const hostile = '<img src=x onerror="alert(1)">';
  const rows: SqlValue[][] = [
    ['France', 3],
    [hostile, 5],
    ['Kenya', 1],
  ];

  it('bars: one rect per point, the description as the SVG’s name, database text as text', () => {
    const { data, chart } = draw(['country', 'n'], rows, { type: 'bar', x: 0, y: 1, reason: '' });
    const svg = svgOf(chart);
    expect(svg.getAttribute('aria-label')).toBe(data.description);
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.querySelectorAll('g[aria-label]')).toHaveLength(0);
    expect(svg.querySelectorAll('rect')).toHaveLength(3);
    expect(svg.querySelector('img')).toBeNull();
    expect(svg.textContent).toContain(hostile);
    // Bars keep the result's order (its ORDER BY), not an alphabetical one.
    const labels = [...svg.querySelectorAll('text')].map((t) => t.textContent);
    expect(labels.indexOf('France')).toBeLessThan(labels.indexOf(hostile));
    expect(labels.indexOf(hostile)).toBeLessThan(labels.indexOf('Kenya'));
  });

  it('grouped and stacked bars with a legend, a line over dates, a scatter, a histogram', () => {
    const byTwo: SqlValue[][] = [
      ['France', 'web', 3],
      ['France', 'store', 2],
      ['Kenya', 'web', 1],
      ['Kenya', 'store', 4],
    ];
    for (const type of ['grouped-bar', 'stacked-bar'] as const) {
      const { chart } = draw(['country', 'channel', 'n'], byTwo, { type, x: 0, y: 2, series: 1, reason: '' });
      expect(chart.tagName.toLowerCase()).toBe('figure');
      expect(svgOf(chart).querySelectorAll('rect').length).toBe(4);
    }
    const days: SqlValue[][] = [
      ['2024-01-01', 3],
      ['2024-02-01', 5],
      ['2024-03-01', 4],
    ];
    const line = draw(['day', 'n'], days, { type: 'line', x: 0, y: 1, reason: '' });
    expect(line.data.xIsDate).toBe(true);
    expect(svgOf(line.chart).querySelectorAll('path').length).toBeGreaterThan(0);
    const pairs: SqlValue[][] = Array.from({ length: 20 }, (_, i) => [i, i * i]);
    const scatter = draw(['a', 'b'], pairs, { type: 'scatter', x: 0, y: 1, reason: '' });
    expect(svgOf(scatter.chart).querySelectorAll('circle')).toHaveLength(20);
    const histogram = draw(['a'], pairs, { type: 'histogram', x: 0, aggregate: 'count', reason: '' });
    expect(svgOf(histogram.chart).querySelectorAll('rect').length).toBeGreaterThan(1);
  });

  it('a standalone SVG file: namespace, a title with the description, the colours written in', () => {
    const { data, chart } = draw(['country', 'n'], rows, { type: 'bar', x: 0, y: 1, reason: '' });
    const file = svgFile(chart, data.description, { ink: '#111111', paper: '#ffffff' });
    const parsed = new DOMParser().parseFromString(file, 'image/svg+xml');
    expect(parsed.querySelector('parsererror')).toBeNull();
    expect(parsed.documentElement.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(parsed.querySelector('title')?.textContent).toBe(data.description);
    expect(parsed.documentElement.getAttribute('style')).toContain('color: rgb(17, 17, 17)');
    expect(parsed.querySelector('img')).toBeNull();
  });

  it('a standalone SVG parses as XML whatever control characters, non-characters or lone surrogates its labels hold', () => {
    const labels = ['soh\u0001', 'vt\u000B', 'nonchar\uFFFF', 'lone\uD800'];
    const { data, chart } = draw(
      ['label', 'n'],
      labels.map((l, i) => [l, i + 1]),
      { type: 'bar', x: 0, y: 1, reason: '' },
    );
    const file = svgFile(chart, data.description, { ink: '#111111', paper: '#ffffff' });
    const parsed = new DOMParser().parseFromString(file, 'image/svg+xml');
    expect(parsed.querySelector('parsererror')).toBeNull();
    const ticks = [...parsed.querySelectorAll('text')].map((t) => t.textContent);
    expect(ticks).toEqual(expect.arrayContaining(['soh⟨U+0001⟩', 'vt⟨U+000B⟩', 'nonchar⟨U+FFFF⟩', 'lone⟨U+D800⟩']));
  });

  it('a standalone SVG with series carries the legend (in the page it is HTML beside the chart)', () => {
    const byTwo: SqlValue[][] = [
      ['France', 'web', 3],
      ['France', 'store & co', 2],
      ['Kenya', 'web', 1],
    ];
    const { data, chart } = draw(['country', 'channel', 'n'], byTwo, {
      type: 'grouped-bar',
      x: 0,
      y: 2,
      series: 1,
      reason: '',
    });
    const swatchColours = [...chart.querySelectorAll(':scope > div svg[fill]')].map((s) => s.getAttribute('fill'));
    expect(swatchColours).toHaveLength(2);
    const file = svgFile(chart, data.description, { ink: '#111111', paper: '#ffffff' });
    const parsed = new DOMParser().parseFromString(file, 'image/svg+xml');
    expect(parsed.querySelector('parsererror')).toBeNull();
    const legend = [...parsed.querySelectorAll('g > text')].map((t) => t.textContent);
    expect(legend).toEqual(expect.arrayContaining(['web', 'store & co']));
    const legendFills = [...parsed.querySelectorAll('g > rect[width="15"]')].map((r) => r.getAttribute('fill'));
    expect(legendFills).toEqual(swatchColours);
    // The view box grows upwards by one legend row; the chart's own drawing is not moved.
    const [, top, , height] = parsed.documentElement.getAttribute('viewBox')!.split(' ').map(Number);
    expect(top).toBe(-22);
    expect(height).toBe(Number(svgOf(chart).getAttribute('height')) + 22);
  });
});
