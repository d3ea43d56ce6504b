// Charts in Node, for the CLI's --chart (issue 24): Plot draws into a document from linkedom, the
// lightest DOM that serves (decision 062: 0.2 s to load against jsdom's 0.9 s, half the memory),
// and the file is written as XML by svg-xml.ts (linkedom writes HTML), as the page's is.

import { parseHTML } from 'linkedom';
import type { ChartData } from '../../core/charts/chart-data';
import { drawChart, svgFile } from './draw-chart';

/** The colours of the page's light scheme: a file opened anywhere reads on white. */
const LIGHT = { accent: '#1f6f5c', ink: '#1d1d1b', paper: '#ffffff' };

/** The chart as a standalone SVG file's text. */
export function chartSvgFile(data: ChartData, size = { width: 800, height: 450 }): string {
  const { document } = parseHTML('<!doctype html><html><body></body></html>');
  const chart = drawChart(data, { ...size, accent: LIGHT.accent, document: document as unknown as Document });
  return svgFile(chart, data.description, LIGHT);
}
