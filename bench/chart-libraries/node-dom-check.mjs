// Parses every out/dom-*.svg as XML (jsdom's DOMParser, image/svg+xml): a file the CLI writes must
// open in any SVG viewer. Also draws a bar named by hostile text with each DOM and checks that
// the text stays text. Usage: node node-dom-check.mjs (after node-dom.mjs for each library)
import { readdirSync, readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
import * as Plot from '@observablehq/plot';

const { window } = new JSDOM('');
const parse = (text) => new window.DOMParser().parseFromString(text, 'image/svg+xml');
for (const f of readdirSync('out').filter((f) => f.startsWith('dom-'))) {
  const doc = parse(readFileSync(`out/${f}`, 'utf8'));
  const error = doc.querySelector('parsererror');
  console.log(JSON.stringify({ file: f, xml: error ? `error: ${error.textContent.slice(0, 120)}` : 'ok' }));
}
const hostile = '</text><script>alert(1)</script>&amp; "q" <b>';
for (const lib of ['jsdom', 'linkedom', 'happy-dom']) {
  let document, serialize;
  if (lib === 'jsdom') { const w = new JSDOM('').window; document = w.document; serialize = (el) => new w.XMLSerializer().serializeToString(el); }
  if (lib === 'linkedom') { const { parseHTML } = await import('linkedom'); document = parseHTML('<!doctype html><html><body></body></html>').document; serialize = (el) => el.outerHTML; }
  if (lib === 'happy-dom') { const { Window } = await import('happy-dom'); const w = new Window(); document = w.document; serialize = (el) => new w.XMLSerializer().serializeToString(el); }
  const el = Plot.plot({ document, ariaLabel: hostile, marks: [Plot.barY([{ x: hostile, y: 1 }], { x: 'x', y: 'y' })] });
  if (lib === 'linkedom') el.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const doc = parse(serialize(el));
  const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
  console.log(JSON.stringify({ lib, hostileXml: doc.querySelector('parsererror') ? 'error' : 'ok', scripts: doc.querySelectorAll('script').length, textKept: texts.includes(hostile), labelKept: doc.documentElement.getAttribute('aria-label') === hostile }));
}
