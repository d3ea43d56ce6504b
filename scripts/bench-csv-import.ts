/**
 * Importing a CSV (issue 26 target: within 2x the time of SQLite's own `.import`, CLI and page).
 * Writes a realistic CSV of the given size (ids in order, unique codes, skewed categories, free
 * text with commas and quotes, amounts with blanks, ISO dates, zip codes with leading zeros), then
 * times `dowser sql --db file.csv "SELECT count(*) …"` (the whole CLI: start, import, query) against
 * `sqlite3 :memory: '.import --csv file t' 'SELECT count(*) FROM t'`, three runs each, and the
 * CLI's peak memory (/usr/bin/time -v when present).
 *
 *   npx tsx scripts/bench-csv-import.ts [megabytes=50]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mulberry32 } from '../src/core/random';

const mb = Number(process.argv[2] ?? 50);
const dir = mkdtempSync(join(tmpdir(), 'csv-bench-'));
const file = join(dir, 'orders.csv');
const random = mulberry32(26);
const words = 'river stone amber quiet north delivery invoice late refund express parcel garden'.split(' ');
const cities = ['Berlin', 'Paris', 'Nairobi', 'Osaka', 'Lima', 'Oslo', 'Porto'];
const lines = ['id,code,city,note,amount,day,zip'];
let bytes = lines[0].length + 1;
for (let i = 1; bytes < mb * 1024 * 1024; i++) {
  const note = Array.from(
    { length: 3 + Math.floor(random() * 10) },
    () => words[Math.floor(random() * words.length)],
  ).join(' ');
  const quoted = random() < 0.2 ? `"${note}, said ""ok"""` : note;
  const line = [
    i,
    `C-${Math.floor(random() * 1e9).toString(36)}`,
    random() < 0.6 ? cities[0] : cities[Math.floor(random() * cities.length)],
    quoted,
    random() < 0.05 ? '' : (random() * 1000).toFixed(2),
    new Date(Date.UTC(2018, 0, 1) + Math.floor(random() * 2500) * 864e5).toISOString().slice(0, 10),
    String(Math.floor(random() * 99999)).padStart(5, '0'),
  ].join(',');
  lines.push(line);
  bytes += line.length + 1;
}
writeFileSync(file, lines.join('\n') + '\n');
console.log(`${(statSync(file).size / 1024 / 1024).toFixed(1)} MB, ${(lines.length - 1).toLocaleString('en')} rows`);

const time = (cmd: string, args: string[]) => {
  const t = performance.now();
  const out = execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] });
  return { ms: Math.round(performance.now() - t), out: out.trim().split('\n').at(-2) ?? out.trim() };
};
const dowser = ['bin/dowser.mjs', 'sql', '--db', file, 'SELECT count(*) FROM orders'];
const sqlite = [':memory:', '.import --csv ' + file + ' t', 'SELECT count(*) FROM t'];
for (let r = 0; r < 3; r++) {
  const a = time('node', dowser);
  const b = time('sqlite3', sqlite);
  console.log(
    `run ${r + 1}: dowser ${a.ms} ms (${a.out}) · sqlite3 .import ${b.ms} ms (${b.out}) · ratio ${(a.ms / b.ms).toFixed(2)}`,
  );
}
const baseline = time('node', ['bin/dowser.mjs', '--help']);
console.log(`dowser's own start (--help): ${baseline.ms} ms`);
if (existsSync('/usr/bin/time')) {
  const v = spawnSync('/usr/bin/time', ['-v', 'node', ...dowser], { encoding: 'utf8' });
  console.log(`dowser peak RSS: ${v.stderr.match(/Maximum resident set size \(kbytes\): (\d+)/)?.[1]} KB`);
}
