import { describe, expect, it } from 'vitest';
import { columnDescriptionText, decodeText, descriptionTexts, parseBirdDescriptionCsv } from './bird-csv';

const HEADER = 'original_column_name,column_name,column_description,data_format,value_description';
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('decodeText', () => {
  it('drops a UTF-8 BOM, keeps UTF-8 and falls back to Windows-1252', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xc3, 0xa9]))).toBe('aé');
    // BIRD's Latin-1 files use 0x95 (•) and 0x96 (–), where Windows-1252 and ISO-8859-1 differ.
    expect(decodeText(new Uint8Array([0x61, 0xe9, 0x80, 0x95, 0x96, 0x81]))).toBe('aé€•–\u0081');
    // Valid UTF-8 holding C1 controls (U+0095 as c2 95): mapped to what they meant in Windows-1252.
    expect(decodeText(new Uint8Array([0xc2, 0x95, 0x20, 0x61]))).toBe('• a');
  });
});

describe('parseBirdDescriptionCsv', () => {
  it('reads a BOM + CRLF file with a padded name and a quoted multi-line value', () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...utf8(
        `${HEADER}\r\nloan_id,,the id of the loan,integer,\r\n amount ,amount of money,approved amount,integer,"unit：US dollar\r\nnot cents"\r\n\r\n`,
      ),
    ]);
    const m = parseBirdDescriptionCsv(decodeText(bytes));
    expect([...m.keys()]).toEqual(['loan_id', 'amount']);
    expect(m.get('loan_id')).toEqual({
      expandedName: '',
      description: 'the id of the loan',
      dataFormat: 'integer',
      valueDescription: '',
    });
    expect(m.get('amount')).toEqual({
      expandedName: 'amount of money',
      description: 'approved amount',
      dataFormat: 'integer',
      valueDescription: 'unit：US dollar\nnot cents',
    });
  });

  it('accepts header names in any case with spaces, and skips rows without a column name', () => {
    const m = parseBirdDescriptionCsv(
      ' Original_Column_Name , COLUMN_NAME,Column_Description,data_format,value_description\n,orphan,no name,,\nspecies,,kind of animal,text,\n',
    );
    expect([...m.entries()]).toEqual([
      ['species', { expandedName: '', description: 'kind of animal', dataFormat: 'text', valueDescription: '' }],
    ]);
  });

  it('reads a Windows-1252 file', () => {
    const bytes = new Uint8Array([
      ...utf8(`${HEADER}\nplayer_name,player name,the player's name,text,"e.g. Zo`),
      0xeb,
      ...utf8(' '),
      0x95,
      ...utf8(' more"\n'),
    ]);
    expect(parseBirdDescriptionCsv(decodeText(bytes)).get('player_name')?.valueDescription).toBe('e.g. Zoë • more');
  });

  it('gives nothing for a CSV of another shape', () => {
    expect(parseBirdDescriptionCsv('a,b,c\n1,2,3\n').size).toBe(0);
    expect(parseBirdDescriptionCsv('').size).toBe(0);
  });
});

describe('descriptionTexts', () => {
  it('joins the parts into one line per column, keyed in lower case', () => {
    const m = new Map([
      [
        'Player',
        new Map([
          [
            'player_name',
            { expandedName: 'player name', description: "the player's name", dataFormat: 'text', valueDescription: '' },
          ],
          [
            'preferred_foot',
            {
              expandedName: 'preferred foot',
              description: 'foot',
              dataFormat: 'text',
              valueDescription: '• left\n• right',
            },
          ],
          ['id', { expandedName: '', description: '', dataFormat: 'integer', valueDescription: '' }],
        ]),
      ],
    ]);
    const t = descriptionTexts(m);
    expect([...t.keys()]).toEqual(['player']);
    expect(Object.fromEntries(t.get('player')!)).toEqual({
      player_name: "the player's name",
      preferred_foot: 'foot; • left • right',
    });
  });

  it('keeps a spelled-out name that says more than the column name', () => {
    expect(
      columnDescriptionText('dob', {
        expandedName: 'date of birth',
        description: '',
        dataFormat: 'date',
        valueDescription: '',
      }),
    ).toBe('date of birth');
  });
});
