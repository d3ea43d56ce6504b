/**
 * The value index builder alone, on the text cells of a real file: the cells are read once into
 * memory, then ValueIndexBuilder is fed and finished `--runs` times and timed (no SQL inside the
 * timing). For comparing changes to the tokenizer, counters and postings (decision 013).
 *
 *   node --import tsx scripts/bench-value-builder.ts --db <file.sqlite> [--runs 3]
 */
import { createNodeEngine } from '../src/adapters/sqljs/node';
import { executorFor } from '../src/core/executor';
import { isLastPage, mayHoldText, valueTables } from '../src/core/retrieval/distinct-values';
import { ValueIndexBuilder } from '../src/core/retrieval/value-index';
import { quoteIdent } from '../src/core/sql/quote';
import type { SqlValue, TableInfo } from '../src/core/types';

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const file = arg('db');
if (!file) throw new Error('usage: scripts/bench-value-builder.ts --db <file.sqlite> [--runs 3]');
const runs = Number(arg('runs') ?? 3);
const PAGE = 50_000;

const engine = await createNodeEngine();
await engine.open({ id: 'b', name: file, bytes: { path: file } });
const schema = await engine.introspect('b');
const exec = executorFor(engine, 'b');
const tables: Array<{ table: TableInfo; rows: SqlValue[][] }> = [];
let t0 = performance.now();
for (const table of valueTables(schema)) {
  if (table.withoutRowid) continue;
  const cols = table.columns.filter(mayHoldText).map((c) => quoteIdent(c.name));
  const rows: SqlValue[][] = [];
  let last: SqlValue = null;
  for (;;) {
    const where = last === null ? '' : ' WHERE rowid > ?';
    const page = await exec.query(
      `SELECT rowid, ${cols.join(', ')} FROM ${quoteIdent(table.name)}${where} ORDER BY rowid LIMIT ${PAGE}`,
      { maxRows: PAGE, params: last === null ? [] : [last] },
    );
    for (const r of page.rows) rows.push(r);
    if (isLastPage(page, PAGE)) break;
    last = page.rows[page.rows.length - 1][0];
  }
  tables.push({ table, rows });
}
console.log(`read ${Math.round(performance.now() - t0)} ms`);
for (let run = 0; run < runs; run++) {
  const builder = new ValueIndexBuilder();
  t0 = performance.now();
  for (const { table, rows } of tables) {
    const sinks = table.columns.filter(mayHoldText).map((c) => builder.column(table, c, true));
    for (const row of rows)
      for (let j = 0; j < sinks.length; j++) {
        const v = row[1 + j];
        if (typeof v === 'string') sinks[j].add(v, row[0] as number);
        else sinks[j].other(v);
      }
    for (const s of sinks) s.done(rows.length);
  }
  const t1 = performance.now();
  const index = await builder.finish();
  const t2 = performance.now();
  console.log(
    `run ${run + 1}: add ${Math.round(t1 - t0)} ms, finish ${Math.round(t2 - t1)} ms, total ${Math.round(t2 - t0)} ms, ${index.size} values`,
  );
}
