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
