// Query: lib=echarts|plot|vega  mode=all|bench  interp=1 (vega: ast+interpreter)
const q = new URLSearchParams(location.search);
const lib = q.get('lib'), mode = q.get('mode') || 'all';
const o = {};
if (q.get('interp') === '1') o.csp = true;
const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function describe(id) {
  const el = document.getElementById(id);
  const svg = el.querySelector('svg');
  const attrs = (n) => n ? Object.fromEntries([...n.attributes].filter((a) => a.name !== 'style' || n === el).map((a) => [a.name, a.value.length > 300 && a.name !== 'aria-label' ? a.value.slice(0, 300) + '…' : a.value])) : null;
  const wrapperChain = []; // attributes of elements between container and svg (a11y attrs may sit on a wrapper)
  for (let n = svg && svg.parentElement; n && n !== el; n = n.parentElement) wrapperChain.push({ tag: n.tagName.toLowerCase(), attrs: attrs(n) });
  return {
    svgCount: el.querySelectorAll('svg').length,
    container: attrs(el), wrappers: wrapperChain, svg: attrs(svg),
    title: svg ? [...svg.querySelectorAll('title')].slice(0, 3).map((t) => t.textContent) : [],
    desc: svg ? [...svg.querySelectorAll('desc')].slice(0, 3).map((t) => t.textContent) : [],
    elementsInSvg: svg ? svg.querySelectorAll('*').length : 0,
    ariaLabelledEls: svg ? svg.querySelectorAll('[aria-label]').length : 0,
    roles: svg ? [...new Set([...svg.querySelectorAll('[role]')].map((n) => n.getAttribute('role')))] : [],
    sampleMarkAria: svg ? [...svg.querySelectorAll('[aria-label]')].slice(0, 12).map((n) => n.tagName + '[' + (n.getAttribute('role') || '') + ']: ' + n.getAttribute('aria-label')) : [],
  };
}

async function main() {
  const [{ makeData }, L] = await Promise.all([import('/dist/data.js'), import(`/dist/${lib}.js`)]);
  const data = makeData();
  if (mode === 'all') {
    await L.barChart(document.getElementById('bar'), data.bar, o);
    await L.lineChart(document.getElementById('line'), data.line, o);
    await L.scatterChart(document.getElementById('scatter'), data.scatter, o);
    await frame(); await sleep(200);
    window.__result = { bar: describe('bar'), line: describe('line'), scatter: describe('scatter') };
  } else {
    await frame(); await frame(); await sleep(300); // let loading/parsing tasks settle
    const el = document.getElementById('scatter');
    const t0 = performance.now();
    await L.scatterChart(el, data.scatter, o); // ECharts/Plot: synchronous; vega-embed: promise resolves after view.runAsync()
    const t1 = performance.now();
    const svgInDom = !!el.querySelector('svg');
    await frame();
    const t2 = performance.now(); // after the next frame (style/layout/paint of the new SVG)
    await sleep(500);
    const lts = window.__longtasks.filter((t) => t.start + t.duration >= t0 && t.start <= t2);
    window.__result = { renderMs: t1 - t0, toNextFrameMs: t2 - t0, svgInDom, elementsInSvg: el.querySelector('svg')?.querySelectorAll('*').length,
      longestTaskMs: lts.length ? Math.max(...lts.map((t) => t.duration)) : 0, longTaskCount: lts.length };
  }
  window.__done = true;
}
main().catch((e) => { window.__errors.push('main: ' + (e && e.stack || e)); window.__done = true; });
