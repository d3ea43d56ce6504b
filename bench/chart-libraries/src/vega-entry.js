import embed from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import { specs } from './vega-spec.js';
// o.csp = true -> Vega AST + interpreter (no new Function); resolves after view.runAsync() (SVG in DOM)
function opts(o = {}) { return { renderer: 'svg', actions: false, ...(o.csp ? { ast: true, expr: expressionInterpreter } : {}), ...(o.embed || {}) }; }
export const barChart = (el, data, o) => embed(el, specs.bar(data), opts(o));
export const lineChart = (el, data, o) => embed(el, specs.line(data), opts(o));
export const scatterChart = (el, data, o) => embed(el, specs.scatter(data), opts(o));
