// CSP check (strict header) + accessibility dump of the bar chart.
import { startServer } from './server.mjs';
import { launch, openPage } from './browser.mjs';
const srv = await startServer();
const base = `http://127.0.0.1:${srv.address().port}/page.html?mode=all&`;
const browser = await launch();
const runs = { echarts: 'lib=echarts', plot: 'lib=plot', 'vega (default)': 'lib=vega', 'vega (ast+interpreter)': 'lib=vega&interp=1' };
console.log('## CSP (header: strict)');
for (const [k, qs] of Object.entries(runs)) {
  const r = await openPage(browser, base + qs + '&csp=1');
  const rendered = r.result ? ['bar', 'line', 'scatter'].map((c) => `${c}:${r.result[c].svgCount ? 'svg' : 'NONE'}(${r.result[c].elementsInSvg})`).join(' ') : 'no result';
  const consoleErrs = r.consoleErrors.filter((e) => !e.includes('404')); // favicon 404 ignored
  console.log(`${k}: violations=${r.violations.length} ${JSON.stringify(r.violations.slice(0, 2))} pageErrors=${JSON.stringify([...r.errors, ...r.pageErrors].slice(0, 2))} console=${JSON.stringify(consoleErrs.slice(0, 3))} rendered: ${rendered}`);
}
console.log('\n## CSP control (no header)');
for (const [k, qs] of Object.entries(runs)) {
  const r = await openPage(browser, base + qs);
  console.log(`${k}: violations=${r.violations.length} errors=${r.errors.length + r.pageErrors.length}`);
}
console.log('\n## A11y (no CSP header), bar chart');
for (const [k, qs] of Object.entries({ echarts: 'lib=echarts', plot: 'lib=plot', vega: 'lib=vega' })) {
  const r = await openPage(browser, base + qs);
  const { bar, scatter } = r.result;
  console.log(`### ${k}\n${JSON.stringify(bar, null, 1)}\n scatter: ariaLabelledEls=${scatter.ariaLabelledEls} roles=${JSON.stringify(scatter.roles)}`);
}
await browser.close(); srv.close();
