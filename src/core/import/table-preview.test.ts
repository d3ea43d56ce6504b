import { describe, expect, it } from 'vitest';
import { planTableFile, SAMPLE_ROWS } from './table-file';
import { chosenTypes, previewTableFile } from './table-preview';

const enc = (s: string) => new TextEncoder().encode(s);

describe('previewTableFile', () => {
  it('shows the columns, the types the first rows suggest and those rows', () => {
    const p = previewTableFile('Sales 2024.csv', enc('region,zip,units\nNorth,00501,3\nSouth,,12\n'), true);
    expect(p).toMatchObject({
      json: false,
      table: 'Sales_2024',
      header: true,
      columns: [
        { name: 'region', type: 'TEXT' },
        { name: 'zip', type: 'TEXT' },
        { name: 'units', type: 'INTEGER' },
      ],
      rows: [
        ['North', '00501', '3'],
        ['South', '', '12'],
      ],
      typesChosenOnImport: false,
    });
  });

  it('reads a cut file up to its last line end: no half row, no half character', () => {
    const whole = enc('name,city\nZoë,Zürich\nRenée,Genève\n');
    // Cut inside "Genève"'s two-byte è: the last row is left out, and no character is misread.
    const cut = whole.subarray(0, whole.length - 4);
    const p = previewTableFile('people.csv', cut, false);
    expect(p.rows).toEqual([['Zoë', 'Zürich']]);
  });

  it('a JSON array cut short says its columns come at import', () => {
    const p = previewTableFile('big.json', enc('[{"a":1},{"a":'), false);
    expect(p.typesChosenOnImport).toBe(true);
    expect(p.table).toBe('big');
    const lines = previewTableFile('log.jsonl', enc('{"t":1.5,"m":"x"}\n{"t":2,"m":"y"}\n{"t":'), false);
    expect(lines.columns).toEqual([
      { name: 't', type: 'REAL' },
      { name: 'm', type: 'TEXT' },
    ]);
  });

  it('sends only the types the person changed', () => {
    const p = previewTableFile('x.csv', enc('a,b,c\n1,x,2.5\n'), true);
    expect(chosenTypes(p, [null, null, null])).toBeUndefined();
    expect(chosenTypes(p, ['INTEGER', 'TEXT', 'REAL'])).toBeUndefined(); // the same as detected
    expect(chosenTypes(p, ['TEXT', null, 'INTEGER'])).toEqual(['TEXT', null, 'INTEGER']);
  });
});

describe('planTableFile with some types chosen', () => {
  it('keeps the chosen ones and checks only the others on every row', () => {
    const lines = ['code,qty'];
    for (let i = 1; i <= SAMPLE_ROWS + 5; i++) lines.push(`${i},${i}`);
    lines.push('A7,x');
    const plan = planTableFile('t.csv', lines.join('\n'), { types: ['INTEGER', null] });
    expect(plan.columns.map((c) => c.type)).toEqual(['INTEGER', 'INTEGER']);
    expect(plan.sampled).toBe(true);
    const last: unknown[] = [];
    plan.eachRow((r) => (last.splice(0), last.push(...r)));
    // "A7" is no integer: kept as written in the chosen INTEGER column, and qty must be looked at again.
    expect(last).toEqual(['A7', 'x']);
    expect(plan.typesSeen()).toEqual(['INTEGER', 'TEXT']);
    const all = planTableFile('t.csv', lines.join('\n'), { types: ['TEXT', 'TEXT'] });
    expect(all.sampled).toBe(false);
  });
});

describe('the first row and the encoding in the preview (issue 35)', () => {
  const contacts =
    'Ada Lovelace,London,ada@example.org\nGrace Hopper,Arlington,grace@example.org\nAlan Turing,Wilmslow,alan@example.org\n';

  it('shows a headerless file as data with its reason, and as names when asked', () => {
    const auto = previewTableFile('c.csv', enc(contacts), true);
    expect(auto).toMatchObject({
      header: false,
      headerEvidence: { verdict: 'data', choice: 'auto', reason: 'its values look like the rows below' },
      columns: [{ name: 'column_1' }, { name: 'column_2' }, { name: 'column_3' }],
    });
    expect(auto.rows[0]).toEqual(['Ada Lovelace', 'London', 'ada@example.org']);
    const named = previewTableFile('c.csv', enc(contacts), true, { header: 'yes' });
    expect(named.header).toBe(true);
    expect(named.columns.map((c) => c.name)).toEqual(['Ada Lovelace', 'London', 'ada@example.org']);
    expect(named.rows).toHaveLength(2);
  });

  it('says the encoding, and reads another when asked', () => {
    const latin = Uint8Array.from('name\nCafé\nCrème\n', (c) => c.charCodeAt(0));
    expect(previewTableFile('x.csv', latin, true).encoding).toMatchObject({ name: 'windows-1252', why: 'looks-1252' });
    const asUtf8 = previewTableFile('x.csv', latin, true, { encoding: 'utf-8' });
    expect(asUtf8.encoding).toMatchObject({ name: 'utf-8', why: 'chosen', replaced: 2 });
    expect(asUtf8.encodingChoice).toBe('utf-8');
  });

  it('reads a cut UTF-16 file up to its last line end', () => {
    const text = 'a\tb\n1\t2\n3\t4\n';
    const bytes = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0), 0])]);
    const p = previewTableFile('u.tsv', bytes.subarray(0, bytes.length - 3), false);
    expect(p.encoding.name).toBe('utf-16le');
    expect(p.rows).toEqual([['1', '2']]);
  });

  it('a table name SQLite keeps for itself is changed, and said', () => {
    expect(previewTableFile('sqlite_stat1.csv', enc('a,b\n1,2\n'), true)).toMatchObject({
      table: 't_sqlite_stat1',
      tableNote: 'SQLite keeps names starting with sqlite_ for itself',
    });
  });
});
