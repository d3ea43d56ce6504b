// Same as vega-entry.js but without vega-interpreter (to show the interpreter's byte cost).
import embed from 'vega-embed';
import { specs } from './vega-spec.js';
const opts = { renderer: 'svg', actions: false };
export const barChart = (el, data) => embed(el, specs.bar(data), opts);
export const lineChart = (el, data) => embed(el, specs.line(data), opts);
export const scatterChart = (el, data) => embed(el, specs.scatter(data), opts);
