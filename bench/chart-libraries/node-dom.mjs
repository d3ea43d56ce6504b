// Plot in Node needs a `document`: which small DOM gives it one for the CLI's --chart (issue 24)?
// Usage: node node-dom.mjs jsdom|linkedom|happy-dom
// Prints one JSON line: import time of the DOM library, first bar / 2,000-point scatter / line
// render (cold, in this process), the bytes written, the marks counted in the output, peak RSS.
// Writes out/dom-<lib>-{bar,scatter,line}.svg; node-dom-check.mjs parses them as XML.
import { mkdirSync, writeFileSync } from 'node:fs';
import { makeData } from './src/data.js';

const lib = process.argv[2];
const out = { lib, node: process.version };
const t0 = performance.now();
let document;
let serialize;
if (lib === 'jsdom') {
  const { JSDOM } = await import('jsdom');
  const { window } = new JSDOM('');
  document = window.document;
  serialize = (el) => new window.XMLSerializer().serializeToString(el);
} else if (lib === 'linkedom') {
  const { parseHTML } = await import('linkedom');
  document = parseHTML('<!doctype html><html><body></body></html>').document;
  serialize = (el) => el.outerHTML;
} else if (lib === 'happy-dom') {
  const { Window } = await import('happy-dom');
  const window = new Window();
  document = window.document;
  serialize = (el) => new window.XMLSerializer().serializeToString(el);
} else throw new Error(`unknown DOM ${lib}`);
out.domImportMs = +(performance.now() - t0).toFixed(1);
const t1 = performance.now();
const P = await import('./src/plot-entry.js');
out.plotImportMs = +(performance.now() - t1).toFixed(1);

const data = makeData();
const scatter = data.scatter.slice(0, 2000); // the app draws at most 2,000 points (MAX_POINTS)
mkdirSync('out', { recursive: true });
const count = (svg, tag) => (svg.match(new RegExp(`<${tag}[\\s>/]`, 'g')) ?? []).length;
try {
  for (const [kind, draw, rows, tag, expected] of [
    ['bar', P.barChart, data.bar, 'rect', data.bar.length],
    ['scatter', P.scatterChart, scatter, 'circle', scatter.length],
    ['line', P.lineChart, data.line, 'path', 1],
  ]) {
    const t = performance.now();
    const el = draw(null, rows, { document });
    // outerHTML (linkedom) leaves the namespace out; an XMLSerializer declares it itself.
    if (lib === 'linkedom') el.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    const svg = serialize(el);
    out[`${kind}Ms`] = +(performance.now() - t).toFixed(1);
    out[`${kind}Bytes`] = svg.length;
    out[`${kind}Marks`] = `${count(svg, tag)} ${tag} (want ≥ ${expected})`;
    writeFileSync(`out/dom-${lib}-${kind}.svg`, svg);
  }
  out.ok = true;
} catch (e) {
  out.ok = false;
  out.error = String(e?.stack ?? e).split('\n').slice(0, 3).join(' | ');
}
out.totalMs = +(performance.now() - t0).toFixed(1);
out.peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify(out));
