// CSV, TSV and JSON files as tables: header, types, names, and every row kept with its problems said.
import { describe, expect, it } from 'vitest';
import { columnNamesOf, inferType, parseTableFile, tableNameOf } from './table-file';

describe('parseTableFile', () => {
  it('reads a CSV with a header: types from every value, codes with leading zeros kept as text, empty cells NULL', () => {
    const t = parseTableFile(
      'Sales 2024.csv',
      '\uFEFFregion,zip,units,price,note\r\nNorth,00501,3,9.5,"late, refunded"\r\nSouth,10001,,12,\r\n',
    );
    expect(t.table).toBe('Sales_2024');
    expect(t.header).toBe(true);
    expect(t.columns).toEqual([
      { name: 'region', type: 'TEXT' },
      { name: 'zip', type: 'TEXT' },
      { name: 'units', type: 'INTEGER' },
      { name: 'price', type: 'REAL' },
      { name: 'note', type: 'TEXT' },
    ]);
    expect(t.rows).toEqual([
      ['North', '00501', 3, 9.5, 'late, refunded'],
      ['South', '10001', null, 12, null],
    ]);
    expect(t.problems).toEqual([]);
  });

  it('keeps rows with too few or too many fields, and says which', () => {
    const t = parseTableFile('x.csv', 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n');
    expect(t.rows).toEqual([
      [1, 2, '3'],
      [4, 5, null],
      [6, 7, '8,9'],
    ]);
    expect(t.problems).toEqual([
      'row 3: 2 fields, 3 expected (the missing ones are NULL)',
      'row 4: 4 fields, 3 expected (the extra ones are joined into the last column)',
    ]);
  });

  it('names the columns of a file without a header, and reads tabs in a .tsv', () => {
    const t = parseTableFile('data.tsv', '1\t2.5\tx\n3\t4\ty\n');
    expect(t.header).toBe(false);
    expect(t.columns.map((c) => `${c.name} ${c.type}`)).toEqual(['column_1 INTEGER', 'column_2 REAL', 'column_3 TEXT']);
    expect(t.rows).toHaveLength(2);
  });

  it('reads JSON arrays and JSON Lines: keys as columns, nested values as JSON text', () => {
    const arr = parseTableFile('people.json', '[{"name":"Ada","age":36,"tags":["x"]},{"name":"Bo","ok":true}]');
    expect(arr.columns).toEqual([
      { name: 'name', type: 'TEXT' },
      { name: 'age', type: 'INTEGER' },
      { name: 'tags', type: 'TEXT' },
      { name: 'ok', type: 'INTEGER' },
    ]);
    expect(arr.rows).toEqual([
      ['Ada', 36, '["x"]', null],
      ['Bo', null, null, 1],
    ]);
    const lines = parseTableFile('log.jsonl', '{"t":1.5}\nnot json\n{"t":2}\n');
    expect(lines.rows).toEqual([
      [1.5, null],
      [null, 'not json'],
      [2, null],
    ]);
    expect(lines.problems).toEqual(['line 2: not valid JSON (kept as text in a column "value")']);
    expect(() => parseTableFile('bad.json', '[{"a":1},')).toThrow(/bad\.json is not valid JSON/);
  });
});

describe('names and types', () => {
  it('makes usable, distinct names', () => {
    expect(tableNameOf('2024 sales (final).csv')).toBe('t_2024_sales_final');
    expect(tableNameOf('/tmp/Café-data.tsv')).toBe('Café_data');
    expect(columnNamesOf(['id', ' Name ', '', 'name', 'ID'])).toEqual(['id', 'Name', 'column_3', 'name_2', 'ID_2']);
    // A number that would repeat a given name moves on; a NUL would end the CREATE TABLE's text.
    expect(columnNamesOf(['a', 'a', 'a_2'])).toEqual(['a', 'a_2', 'a_2_2']);
    expect(columnNamesOf(['na\u0000me', '\u0001'])).toEqual(['na me', 'column_2']);
  });

  it('infers INTEGER, REAL or TEXT from all values', () => {
    expect(inferType(['1', '', '-2'])).toBe('INTEGER');
    expect(inferType(['1', '2.5', '1e3'])).toBe('REAL');
    expect(inferType(['007', '8'])).toBe('TEXT'); // a code: as a number it would lose its zeros
    expect(inferType(['1', 'x'])).toBe('TEXT');
    expect(inferType(['', ''])).toBe('TEXT');
    // Whole numbers SQLite holds as integers (64 bits) stay INTEGER; beyond that only TEXT keeps them.
    expect(inferType(['1', '9223372036854775807', '-9223372036854775808'])).toBe('INTEGER');
    expect(inferType(['99999999999999999999'])).toBe('TEXT');
    expect(inferType(['1.5', '9223372036854775808'])).toBe('TEXT');
  });
});
