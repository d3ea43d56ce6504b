import { plot, barY, lineY, dot, ruleY } from '@observablehq/plot';
const W = 640, H = 400;
function put(el, svg) { if (el) el.append(svg); return svg; }
export function barChart(el, data, o = {}) {
  return put(el, plot({ width: W, height: H, document: o.document, ariaLabel: 'Sales by category', ariaDescription: 'Bar chart of value for 8 categories',
    marks: [barY(data, { x: 'category', y: 'value', fill: 'steelblue' }), ruleY([0])] }));
}
export function lineChart(el, data, o = {}) {
  return put(el, plot({ width: W, height: H, document: o.document, ariaLabel: 'Daily value', marks: [lineY(data, { x: 'date', y: 'value' })] }));
}
export function scatterChart(el, data, o = {}) {
  return put(el, plot({ width: W, height: H, document: o.document, ariaLabel: 'Scatter 10k', marks: [dot(data, { x: 'x', y: 'y', r: 1.5 })] }));
}
