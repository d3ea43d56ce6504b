import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset, readBirdDescriptions } from './datasets';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-datasets-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = 'original_column_name,column_name,column_description,data_format,value_description';

describe('readBirdDescriptions', () => {
  it('reads CSVs with a BOM and CRLF, in Latin-1, and with quoted multi-line values', () => {
    const d = join(dir, 'financial', 'database_description');
    mkdirSync(d, { recursive: true });
    // UTF-8 with a BOM and CRLF line ends; a padded column name; a multi-line quoted value.
    writeFileSync(
      join(d, 'loan.csv'),
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          `${HEADER}\r\nloan_id,,the id of the loan,integer,\r\n amount ,amount of money,approved amount,integer,"unit：US dollar\r\nnot cents"\r\n\r\n`,
          'utf8',
        ),
      ]),
    );
    // Windows-1252 (é = 0xE9, • = 0x95), LF line ends.
    writeFileSync(
      join(d, 'Player.csv'),
      Buffer.concat([
        Buffer.from(`${HEADER}\nplayer_name,player name,the player's name,text,"e.g. Zoë, José `, 'latin1'),
        Buffer.from([0x95]),
        Buffer.from(' more"\n', 'latin1'),
      ]),
    );
    writeFileSync(join(d, 'notes.txt'), 'not a csv');

    const m = readBirdDescriptions(d);
    expect([...m.keys()]).toEqual(['loan', 'Player']);
    expect(m.get('loan')?.get('loan_id')).toEqual({
      expandedName: '',
      description: 'the id of the loan',
      dataFormat: 'integer',
      valueDescription: '',
    });
    expect(m.get('loan')?.get('amount')).toEqual({
      expandedName: 'amount of money',
      description: 'approved amount',
      dataFormat: 'integer',
      valueDescription: 'unit：US dollar\nnot cents',
    });
    expect(m.get('Player')?.get('player_name')).toEqual({
      expandedName: 'player name',
      description: "the player's name",
      dataFormat: 'text',
      valueDescription: 'e.g. Zoë, José • more',
    });
  });
});

describe('loadDataset', () => {
  it('reads Spider files, with SpiderSynQuestion when present, and --questions overriding dev.json', () => {
    const s = join(dir, 'spider');
    mkdirSync(s, { recursive: true });
    writeFileSync(join(s, 'dev.json'), JSON.stringify([{ db_id: 'a', question: 'Q?', query: 'SELECT 1' }]));
    writeFileSync(
      join(s, 'syn.json'),
      JSON.stringify([{ db_id: 'a', SpiderQuestion: 'Q?', SpiderSynQuestion: 'Synonym Q?', query: 'SELECT 2' }]),
    );
    const dev = loadDataset({ dataset: 'spider', data: s });
    expect(dev.questions).toEqual([{ index: 0, dbId: 'a', question: 'Q?', evidence: '', sql: 'SELECT 1' }]);
    expect(dev.databasePath('a')).toBe(join(s, 'database', 'a', 'a.sqlite'));
    expect(dev.descriptionsDir('a')).toBeNull();
    const syn = loadDataset({ dataset: 'spider', data: s, questions: join(s, 'syn.json') });
    expect(syn.questions[0]).toMatchObject({ question: 'Synonym Q?', sql: 'SELECT 2' });
  });

  it('reads BIRD files with evidence, finding dev_databases/ and the description folders', () => {
    const b = join(dir, 'bird');
    mkdirSync(join(b, 'dev_databases', 'financial', 'database_description'), { recursive: true });
    mkdirSync(join(b, 'desc', 'toxicology', 'database_description'), { recursive: true });
    writeFileSync(
      join(b, 'mini_dev_sqlite.json'),
      JSON.stringify([
        {
          question_id: 7,
          db_id: 'financial',
          question: 'How many?',
          evidence: 'count loans',
          SQL: 'SELECT count(*) FROM loan',
        },
      ]),
    );
    const d = loadDataset({ dataset: 'bird', data: b, descriptions: join(b, 'desc') });
    expect(d.questionsFile).toBe(join(b, 'mini_dev_sqlite.json'));
    expect(d.questions).toEqual([
      { index: 0, dbId: 'financial', question: 'How many?', evidence: 'count loans', sql: 'SELECT count(*) FROM loan' },
    ]);
    expect(d.databasePath('financial')).toBe(join(b, 'dev_databases', 'financial', 'financial.sqlite'));
    expect(d.descriptionsDir('financial')).toBe(join(b, 'dev_databases', 'financial', 'database_description'));
    expect(d.descriptionsDir('toxicology')).toBe(join(b, 'desc', 'toxicology', 'database_description'));
    expect(d.descriptionsDir('other')).toBeNull();
  });

  it('refuses missing folders, missing files and incomplete questions with a clear message', () => {
    expect(() => loadDataset({ dataset: 'spider', data: join(dir, 'nope') })).toThrow(/does not exist/);
    const e = join(dir, 'empty');
    mkdirSync(e, { recursive: true });
    expect(() => loadDataset({ dataset: 'bird', data: e })).toThrow(/No BIRD question file/);
    writeFileSync(join(e, 'dev.json'), JSON.stringify([{ db_id: 'a', question: 'Q?' }]));
    expect(() => loadDataset({ dataset: 'spider', data: e })).toThrow(/Question 0 .* lacks/);
    writeFileSync(join(e, 'dev.json'), '{"not": "a list"}');
    expect(() => loadDataset({ dataset: 'spider', data: e })).toThrow(/JSON array/);
  });
});
