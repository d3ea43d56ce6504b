// Table files imported by the engine (issue 26): types from the first rows, checked on every
// row and imported again when a later value does not fit; the person's types kept; rows bound
// from one buffer in the wasm heap (bulk-insert.ts) store exactly what sql.js's own run() stores.
import { describe, expect, it } from 'vitest';
import type { ImportType } from '../../core/import/table-file';
import { SAMPLE_ROWS } from '../../core/import/table-file';
import { SqljsEngine } from './engine';
import { createNodeEngine } from './node';
import { loadSqlJs } from './runtime';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const enc = (s: string) => new TextEncoder().encode(s);

async function imported(engine: SqljsEngine, name: string, text: string, types?: ImportType[]) {
  const report = await engine.open({
    id: name,
    name,
    bytes: new Uint8Array(0),
    tables: [{ name, bytes: enc(text), ...(types ? { types } : {}) }],
  });
  return report;
}

const rowsOf = async (engine: SqljsEngine, id: string, sql: string) => (await engine.query(id, sql)).rows;

/** An engine without the wasm heap: sql.js's own Statement.run inserts (the fallback path). */
async function engineWithoutHeap(): Promise<SqljsEngine> {
  const wasm = await readFile(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
  const { SQL } = await loadSqlJs(async (imports) => (await WebAssembly.instantiate(wasm, imports)).instance);
  return new SqljsEngine(SQL, undefined, {});
}

describe('importing table files', () => {
  it('imports again when a value past the first rows is no number: nothing converted by a wrong guess', async () => {
    const engine = await createNodeEngine();
    const lines = ['id,code,amount'];
    for (let i = 1; i <= SAMPLE_ROWS + 50; i++) lines.push(`${i},${1000 + i},${i}.5`);
    lines.push(`${SAMPLE_ROWS + 51},007,n/a`);
    const report = await imported(engine, 'late.csv', lines.join('\n'));
    expect(report.issues.find((i) => i.code === 'imported')?.message).toContain(
      'columns id INTEGER, code TEXT, amount TEXT',
    );
    const rows = await rowsOf(
      engine,
      'late.csv',
      `SELECT typeof(code), code, amount FROM late WHERE id IN (1, ${SAMPLE_ROWS + 51}) ORDER BY id`,
    );
    expect(rows).toEqual([
      ['text', '1001', '1.5'],
      ['text', '007', 'n/a'],
    ]);
  });

  it("keeps the person's types: a value that is no number of its type stays as SQLite stores it", async () => {
    const engine = await createNodeEngine();
    const text = 'zip,units,note\n00501,3,ok\n10001,x,\n';
    await imported(engine, 'chosen.csv', text, ['TEXT', 'INTEGER', 'TEXT']);
    expect(await rowsOf(engine, 'chosen.csv', 'SELECT zip, typeof(units), units, note FROM chosen')).toEqual([
      ['00501', 'integer', 3, 'ok'],
      ['10001', 'text', 'x', null],
    ]);
    // Without them the zip codes are inferred as text too, and units as text (an "x").
    await imported(engine, 'inferred.csv', text);
    expect(await rowsOf(engine, 'inferred.csv', 'SELECT typeof(units) FROM inferred')).toEqual([['text'], ['text']]);
  });

  it('skips blank rows, counts rows as the file has them, and reports misfits by row', async () => {
    const engine = await createNodeEngine();
    const report = await imported(engine, 'gaps.csv', 'a,b,c\n1,2,3\n,,\n  \n4,5\n6,7,8,9\n');
    expect(await rowsOf(engine, 'gaps.csv', 'SELECT * FROM gaps')).toEqual([
      [1, 2, '3'],
      [4, 5, null],
      [6, 7, '8,9'],
    ]);
    expect(report.issues.filter((i) => i.code === 'import_row').map((i) => i.message)).toEqual([
      'gaps.csv, row 5: 2 fields, 3 expected (the missing ones are NULL)',
      'gaps.csv, row 6: 4 fields, 3 expected (the extra ones are joined into the last column)',
    ]);
  });

  it('stores exactly what sql.js’s own run() stores: text of any length and script, numbers, NULLs', async () => {
    const long = 'ü€𝄞 '.repeat(40_000); // past the first buffer, with 2-, 3- and 4-byte characters
    const lines = ['id,big,price,word,blank'];
    lines.push(`1,9007199254740991,0.1,"${long}",`);
    lines.push('2,-42,1e-7,"naïve, ""quoted""\nline two",');
    lines.push('3,,3,日本語,');
    for (let i = 4; i < 500; i++) lines.push(`${i},${i * 7},${i / 8},w${i % 13},`);
    const text = lines.join('\r\n');
    const dump = async (engine: SqljsEngine) => {
      await imported(engine, 'mix.csv', text);
      return rowsOf(
        engine,
        'mix.csv',
        'SELECT id, typeof(big), big, price, typeof(price), word, typeof(blank) FROM mix',
      );
    };
    const engine2 = await createNodeEngine();
    const fast = await dump(engine2);
    expect(fast).toEqual(await dump(await engineWithoutHeap()));
    expect(fast[0][2]).toBe(9007199254740991);
    // Cells over 100,000 characters come back cut: the long one is compared in SQL.
    expect(await rowsOf(engine2, 'mix.csv', `SELECT length(word), word = '${long}' FROM mix WHERE id = 1`)).toEqual([
      [160_000, 1],
    ]);
    expect(fast[1][5]).toBe('naïve, "quoted"\nline two');
    expect(fast[2][1]).toBe('null');
    expect(fast[2][5]).toBe('日本語');
  });
});
