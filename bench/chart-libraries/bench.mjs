// Render-time benchmark: 10k scatter, 5 runs each, fresh browser context+page per run, round-robin order.
import { startServer } from './server.mjs';
import { launch, openPage } from './browser.mjs';
const RUNS = +process.env.RUNS || 5;
const configs = {
  'echarts': 'lib=echarts',
  'plot': 'lib=plot',
  'vega (default compiler)': 'lib=vega',
  'vega (ast+interpreter)': 'lib=vega&interp=1',
};
const srv = await startServer();
const base = `http://127.0.0.1:${srv.address().port}/page.html?mode=bench&`;
const browser = await launch();
console.log('browser', browser.version());
const res = Object.fromEntries(Object.keys(configs).map((k) => [k, []]));
for (let i = 0; i < RUNS; i++) for (const [k, qs] of Object.entries(configs)) {
  const r = await openPage(browser, base + qs);
  if (r.errors.length || r.pageErrors.length) console.log(k, 'ERRORS', r.errors, r.pageErrors);
  res[k].push(r.result);
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
for (const [k, rs] of Object.entries(res)) {
  console.log(`${k.padEnd(36)} render median=${med(rs.map((r) => r.renderMs)).toFixed(1)}ms  runs=[${rs.map((r) => r.renderMs.toFixed(0)).join(',')}]  ` +
    `toNextFrame median=${med(rs.map((r) => r.toNextFrameMs)).toFixed(1)}  longestTask median=${med(rs.map((r) => r.longestTaskMs)).toFixed(1)} [${rs.map((r) => r.longestTaskMs.toFixed(0)).join(',')}]  ` +
    `longTasks=${rs.map((r) => r.longTaskCount).join(',')} svgInDom=${rs.every((r) => r.svgInDom)} elements=${rs[0].elementsInSvg}`);
}
await browser.close(); srv.close();
