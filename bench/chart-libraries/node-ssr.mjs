// Server-side SVG in plain Node (no jsdom). Usage: node node-ssr.mjs echarts|vega|plot|plot-jsdom
// Prints one JSON line: {lib, ok, scatterMs, bytes, error}. Cold: one render per process. Also writes out/<lib>-{bar,scatter}.svg
import { writeFileSync } from 'node:fs';
import { makeData } from './src/data.js';
const lib = process.argv[2];
const data = makeData();
const W = 640, H = 400;
let render;
if (lib === 'echarts') {
  const { echarts } = await import('./src/echarts-entry.js'); // same tree-shaken registration as the browser bundle
  render = (kind) => {
    const opt = kind === 'bar'
      ? { title: { text: 'Sales by category' }, dataset: { source: data.bar }, xAxis: { type: 'category' }, yAxis: {}, series: [{ type: 'bar', encode: { x: 'category', y: 'value' } }] }
      : { title: { text: 'Scatter 10k' }, dataset: { source: data.scatter }, xAxis: {}, yAxis: {}, series: [{ type: 'scatter', symbolSize: 3, encode: { x: 'x', y: 'y' } }] };
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: W, height: H });
    chart.setOption({ animation: false, aria: { enabled: true }, ...opt });
    const svg = chart.renderToSVGString();
    chart.dispose();
    return svg;
  };
} else if (lib === 'vega') {
  const vega = await import('vega');
  const vl = await import('vega-lite');
  const { specs } = await import('./src/vega-spec.js');
  render = async (kind) => {
    const vg = vl.compile(specs[kind](data[kind])).spec;
    const view = new vega.View(vega.parse(vg), { renderer: 'none' });
    const svg = await view.toSVG();
    view.finalize();
    return svg;
  };
} else if (lib === 'plot' || lib === 'plot-jsdom') {
  const P = await import('./src/plot-entry.js');
  let document;
  if (lib === 'plot-jsdom') { const { JSDOM } = await import('jsdom'); document = new JSDOM('').window.document; }
  render = (kind) => {
    const el = (kind === 'bar' ? P.barChart : P.scatterChart)(null, data[kind], { document });
    if (document) el.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    return el.outerHTML;
  };
}
const out = { lib, node: process.version };
try {
  const t0 = performance.now();
  const svg = await render('scatter'); // cold: first render in this process (module import excluded)
  out.scatterMs = +(performance.now() - t0).toFixed(1);
  writeFileSync(`out/${lib}-scatter.svg`, svg);
  const bar = await render('bar');
  writeFileSync(`out/${lib}-bar.svg`, bar);
  out.ok = true; out.bytes = svg.length; out.barRootTag = bar.slice(0, bar.indexOf('>') + 1).slice(0, 400);
} catch (e) { out.ok = false; out.error = String(e && e.stack || e).split('\n').slice(0, 3).join(' | '); }
console.log(JSON.stringify(out));
