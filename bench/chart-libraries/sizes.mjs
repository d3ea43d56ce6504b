import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
for (const n of ['echarts', 'plot', 'vega', 'vega-nointerp', 'data']) {
  const b = readFileSync(`${new URL(".", import.meta.url).pathname}dist/${n}.js`);
  console.log(`${n.padEnd(14)} min=${b.length}  gzip9=${gzipSync(b, { level: 9 }).length}`);
}
