import { describe, expect, it } from 'vitest';
import { descriptionOf } from '../retrieval/column-index';
import { schemaOf } from '../../test-support/schema-of';
import type { ColumnDescription } from './bird-csv';
import {
  describedCount,
  emptyGlossary,
  glossaryDescriptions,
  importedTextOf,
  noteOf,
  normalizeGlossary,
  withImportedTable,
  withNote,
} from './glossary';
import { applyImportPlan, importMessage, planDescriptionImport } from './import';

const desc = (description: string, valueDescription = ''): ColumnDescription => ({
  expandedName: '',
  description,
  dataFormat: 'text',
  valueDescription,
});

describe('glossary', () => {
  it('puts the note first, then the imported text, keyed in lower case as the column index reads them', () => {
    let g = withImportedTable(emptyGlossary(), 'Pets', [
      ['Species', desc('the kind of animal', 'dog or cat')],
      ['name', desc('')],
    ]);
    g = withNote(g, 'PETS', 'species', '  what   the vet\nwrites ');
    g = withNote(g, 'people', 'City', 'home town');
    const d = glossaryDescriptions(g);
    expect(Object.fromEntries([...d].map(([t, cols]) => [t, Object.fromEntries(cols)]))).toEqual({
      pets: { species: 'what the vet writes; the kind of animal; dog or cat' },
      people: { city: 'home town' },
    });
    expect(descriptionOf(d, 'Pets', 'Species')).toBe('what the vet writes; the kind of animal; dog or cat');
    expect(descriptionOf(d, 'people', 'city')).toBe('home town');
    expect(describedCount(g)).toBe(2);
  });

  it('reads and writes single columns; a blank note removes it; a re-import replaces the table', () => {
    let g = withNote(emptyGlossary(), 'people', 'city', 'home town');
    expect(noteOf(g, 'People', 'CITY')).toBe('home town');
    g = withNote(g, 'people', 'city', '   ');
    expect(noteOf(g, 'people', 'city')).toBe('');
    expect(g.notes).toEqual({});
    g = withImportedTable(g, 'pets', [
      ['species', desc('old')],
      ['name', desc('pet name')],
    ]);
    g = withImportedTable(g, 'pets', [['species', desc('new')]]);
    expect(importedTextOf(g, 'pets', 'species')).toBe('new');
    expect(importedTextOf(g, 'pets', 'name')).toBe('');
  });

  it('keeps columns named like Object properties as plain data', () => {
    let g = withNote(emptyGlossary(), 't', '__proto__', 'odd');
    g = withNote(g, 't', 'constructor', 'odder');
    expect(noteOf(g, 't', '__proto__')).toBe('odd');
    expect(noteOf(g, 't', 'toString')).toBe('');
    expect(Object.getPrototypeOf(g.notes.t)).toBe(Object.prototype);
    expect(glossaryDescriptions(g).get('t')?.get('__proto__')).toBe('odd');
  });

  it('normalizes stored data of unknown shape', () => {
    expect(normalizeGlossary(null)).toEqual(emptyGlossary());
    expect(
      normalizeGlossary({
        notes: { People: { City: 'x', n: 3, e: ' ' } },
        imported: { t: { c: { description: 'd', dataFormat: 1 } }, u: 'no' },
      }),
    ).toEqual({
      notes: { people: { city: 'x' } },
      imported: { t: { c: { expandedName: '', description: 'd', dataFormat: '', valueDescription: '' } } },
    });
  });
});

const schema = schemaOf({ people: ['id', 'name', 'city'], Pets: ['id', 'owner_id', 'name', 'species'] });

const HEADER = 'original_column_name,column_name,column_description,data_format,value_description';

describe('planDescriptionImport', () => {
  it('matches files to tables and rows to columns case-insensitively, and reports the rest', () => {
    const plan = planDescriptionImport(schema, [
      {
        name: 'pets.CSV',
        text: `${HEADER}\nSPECIES,,"the kind of animal, e.g. dog or cat",text,\nid,,,integer,\ncolour,,fur colour,text,\n`,
      },
      { name: 'owners.csv', text: `${HEADER}\nx,,y,text,\n` },
      { name: 'people.csv', text: 'a,b\n1,2\n' },
      { name: 'notes.txt', text: 'hello' },
    ]);
    expect(plan.tables).toEqual([
      {
        table: 'Pets',
        file: 'pets.CSV',
        columns: [
          ['species', desc('the kind of animal, e.g. dog or cat')],
          ['id', { ...desc(''), dataFormat: 'integer' }],
        ],
      },
    ]);
    expect(plan.describedColumns).toBe(1);
    expect(plan.skipped.map((s) => s.file)).toEqual(['owners.csv', 'people.csv', 'notes.txt']);
    const { level, message } = importMessage(plan);
    expect(level).toBe('warning');
    expect(message).toBe(
      'Descriptions imported for 1 column of 1 table. Skipped: owners.csv (no table named "owners" in this database), ' +
        'people.csv (no rows under an original_column_name header), notes.txt (not a .csv file). pets.CSV describes columns that Pets does not have: colour.',
    );
    const g = applyImportPlan(emptyGlossary(), plan);
    expect(importedTextOf(g, 'Pets', 'species')).toBe('the kind of animal, e.g. dog or cat');
  });

  it('says plainly when all went in', () => {
    const plan = planDescriptionImport(schema, [
      { name: 'people.csv', text: `${HEADER}\ncity,,home town,text,\nname,,full name,text,\n` },
    ]);
    expect(importMessage(plan)).toEqual({ level: 'info', message: 'Descriptions imported for 2 columns of 1 table.' });
  });
});
