/**
 * Opening large SQLite files (issue 26, decision 064): for each file and each way of reading it
 * (a private copy in memory, or the file read as needed), in a fresh process each: time to the
 * open report, to the whole schema (what the page shows first), a full scan (count of a text
 * column's distinct values), a point lookup by rowid, and the process's peak resident memory.
 *
 *   npx tsx scripts/bench-open-file.ts <file.sqlite>... [--table T --column C]
 *
 * Memory is skipped above 2 GiB (it cannot be copied into one buffer). Prints a Markdown table.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';

const MAX_MEMORY_BYTES = 2 * 1024 ** 3 - 1;

interface Case {
  file: string;
  read: 'memory' | 'file';
  openMs: number;
  schemaMs: number;
  tables: number;
  scanMs: number;
  scanValue: unknown;
  lookupMs: number;
  peakRssMB: number;
}

async function one(file: string, read: 'memory' | 'file', table: string, column: string): Promise<Case> {
  const { createNodeEngine } = await import('../src/adapters/sqljs/node');
  const engine = await createNodeEngine();
  const t0 = performance.now();
  const report = await engine.open({ id: 'f', name: basename(file), bytes: { path: resolve(file) }, read });
  const openMs = performance.now() - t0;
  const t1 = performance.now();
  const schema = await engine.introspect('f');
  const schemaMs = performance.now() - t1;
  const t = table || schema.tables.reduce((a, b) => ((b.rowCount ?? 0) > (a.rowCount ?? 0) ? b : a)).name;
  const c = column || schema.tables.find((x) => x.name === t)!.columns.find((x) => x.affinity === 'TEXT')!.name;
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const t2 = performance.now();
  const scan = await engine.query('f', `SELECT count(DISTINCT ${q(c)}) FROM ${q(t)}`);
  const scanMs = performance.now() - t2;
  const t3 = performance.now();
  await engine.query('f', `SELECT * FROM ${q(t)} WHERE rowid = (SELECT max(rowid) FROM ${q(t)}) / 2`);
  const lookupMs = performance.now() - t3;
  if (report.readFrom !== read) throw new Error(`asked for ${read}, the engine read from ${report.readFrom}`);
  return {
    file: basename(file),
    read,
    openMs: Math.round(openMs),
    schemaMs: Math.round(schemaMs),
    tables: schema.tables.length,
    scanMs: Math.round(scanMs),
    scanValue: scan.rows[0][0],
    lookupMs: Math.round(lookupMs * 10) / 10,
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args.splice(at, 2)[1] : '';
};
const table = flag('table');
const column = flag('column');
if (args[0] === '--one') {
  process.stdout.write(JSON.stringify(await one(args[1], args[2] as Case['read'], table, column)));
} else {
  console.log('| file | size | read | open ms | schema ms | full scan ms | lookup ms | peak RSS MB |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const file of args) {
    const size = statSync(file).size;
    for (const read of ['memory', 'file'] as const) {
      if (read === 'memory' && size > MAX_MEMORY_BYTES) continue;
      const extra = [...(table ? ['--table', table] : []), ...(column ? ['--column', column] : [])];
      const out = execFileSync('npx', ['tsx', 'scripts/bench-open-file.ts', '--one', file, read, ...extra], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      const r = JSON.parse(out) as Case;
      console.log(
        `| ${r.file} | ${(size / 1024 ** 3).toFixed(2)} GiB | ${r.read} | ${r.openMs} | ${r.schemaMs} | ${r.scanMs} | ${r.lookupMs} | ${r.peakRssMB} |`,
      );
    }
  }
}
