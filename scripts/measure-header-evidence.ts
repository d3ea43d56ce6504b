// Measures the header decision of core/import/header-evidence.ts (issue 35, item 1; decision 073)
// on tables nobody here wrote: every table of 3+ rows in the sample databases and Spider's dev
// databases, its first 200 rows, as a CSV export would write them. Three files per table: with its
// column names as the header, with them written as a spreadsheet person would ("first_name" →
// "First Name"), and without a header (the first data row first). Run: npx tsx scripts/measure-header-evidence.ts
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { headerEvidence } from '../src/core/import/header-evidence';

const datasets = path.join(import.meta.dirname, '..', '..', 'shared', 'datasets');
if (!existsSync(datasets)) {
  console.log(`skipped: ${datasets} is absent`);
  process.exit(0);
}
const files: string[] = [];
const samples = path.join(datasets, 'sample_dbs');
for (const d of readdirSync(samples))
  for (const f of readdirSync(path.join(samples, d))) if (f.endsWith('.sqlite')) files.push(path.join(samples, d, f));
const spider = path.join(datasets, 'spider', 'database');
for (const d of readdirSync(spider)) {
  const f = path.join(spider, d, `${d}.sqlite`);
  if (existsSync(f)) files.push(f);
}

const SQL = await initSqlJs();
/** A cell as a CSV export writes it: NULL empty, numbers as SQLite prints them. */
const cell = (v: unknown) => (v === null || v === undefined ? '' : v instanceof Uint8Array ? '' : String(v));
const titled = (h: string) =>
  h
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/\b\w/g, (c) => c.toUpperCase());

const tally = { names: new Map<string, number>(), titled: new Map<string, number>(), none: new Map<string, number>() };
const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
const misses: string[] = [];
let tables = 0;
for (const file of files) {
  const db = new SQL.Database(readFileSync(file));
  try {
    const names = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    for (const [name] of names[0]?.values ?? []) {
      let result;
      try {
        result = db.exec(`SELECT * FROM "${String(name).replace(/"/g, '""')}" LIMIT 200`)[0];
      } catch {
        continue;
      }
      if (!result || result.values.length < 3) continue;
      tables++;
      const rows = result.values.map((r) => r.map(cell));
      const where = `${path.basename(file)}:${String(name)}`;
      const plain = headerEvidence(result.columns, rows).verdict;
      const title = headerEvidence(result.columns.map(titled), rows).verdict;
      const none = headerEvidence(rows[0], rows.slice(1)).verdict;
      add(tally.names, plain);
      add(tally.titled, title);
      add(tally.none, none);
      if (plain !== 'header') misses.push(`names read as ${plain}: ${where} (${result.columns.join(', ')})`);
      if (title !== 'header') misses.push(`titled names read as ${title}: ${where}`);
      if (none === 'header') misses.push(`a data row read as a header: ${where} (${rows[0].join(', ').slice(0, 80)})`);
    }
  } finally {
    db.close();
  }
}
const show = (m: Map<string, number>) => [...m].map(([k, n]) => `${k} ${n}`).join(', ');
console.log(`${tables} tables of 3+ rows in ${files.length} databases`);
console.log(`header of column names: ${show(tally.names)}`);
console.log(`header of titled names: ${show(tally.titled)}`);
console.log(`no header:              ${show(tally.none)}`);
console.log(misses.join('\n'));
