// The parse worker's calls, run in process: each reads the picked file and gives core's result,
// or core's own message (issue item 11).

import { describe, expect, it } from 'vitest';
import { examplesToJson } from '../core/examples/examples';
import { runToJson, type ExportableRun } from '../core/export/run-export';
import { parseApi } from './parse-api';
import { fileParsers } from './parse-client';

const RUN: ExportableRun = {
  question: 'How many pets?',
  hints: '',
  dbName: 'tiny.sqlite',
  provider: 'openai',
  model: 'm',
  status: 'done',
  startedAt: 1,
  endedAt: 2,
  events: [{ type: 'thought', text: 'Count them.', step: 1, at: 1 }],
};

const file = (name: string, text: string) => new File([text], name);
const parsers = fileParsers(parseApi);

describe('parse worker calls', () => {
  it('a run file comes back as the run; a damaged one as its reason', async () => {
    expect(await parsers.runFile(file('run.json', runToJson(RUN)))).toMatchObject({
      question: 'How many pets?',
      events: [{ type: 'thought', text: 'Count them.' }],
    });
    await expect(parsers.runFile(file('run.json', '{"format":'))).rejects.toThrow('This file is not JSON.');
    await expect(parsers.runFile(file('run.json', '{"format":"other"}'))).rejects.toThrow(
      /not a Dowser run file, or it is damaged/,
    );
  });

  it('an examples file comes back as its examples; a damaged one as its reason', async () => {
    const examples = await parsers.examplesFile(
      file(
        'examples.json',
        examplesToJson('demo.sqlite', [
          { id: 'a', question: 'How many?', sql: 'SELECT 1', savedAt: 't', plan: null, source: 'user' },
        ]),
      ),
    );
    expect(examples).toMatchObject({ database: 'demo.sqlite', examples: [{ question: 'How many?', sql: 'SELECT 1' }] });
    await expect(parsers.examplesFile(file('examples.json', '{"format":'))).rejects.toThrow();
  });

  it('a question file, CSV or JSON; a bad one with its row', async () => {
    expect(await parsers.questionFile(file('q.csv', 'question,sql\nHow many?,SELECT 1\n'))).toEqual([
      { id: '1', question: 'How many?', sql: 'SELECT 1', hints: '' },
    ]);
    await expect(parsers.questionFile(file('q.json', '[{"question":"x"}]'))).rejects.toThrow(
      'Question 1 has no reference SQL',
    );
  });

  it('description CSVs matched to the names given; a file that cannot be read is listed', async () => {
    const unreadable = file('owners.csv', 'x');
    unreadable.arrayBuffer = () => Promise.reject(new Error('gone'));
    const plan = await parsers.descriptionPlan({ tables: [{ name: 'Pets', columns: [{ name: 'species' }] }] }, [
      file('pets.csv', 'original_column_name,column_name,column_description\nspecies,,Kind of animal\n'),
      file('notes.txt', 'hello'),
      unreadable,
    ]);
    expect(plan.tables).toEqual([
      {
        table: 'Pets',
        file: 'pets.csv',
        columns: [
          ['species', { expandedName: '', description: 'Kind of animal', dataFormat: '', valueDescription: '' }],
        ],
      },
    ]);
    expect(plan.skipped).toEqual([
      { file: 'notes.txt', reason: 'not a .csv file' },
      { file: 'owners.csv', reason: 'could not be read: gone' },
    ]);
  });

  it('a file that cannot be read says so', async () => {
    const broken = file('run.json', '{}');
    broken.text = () => Promise.reject(new Error('NotReadableError'));
    await expect(parsers.runFile(broken)).rejects.toThrow('The file could not be read (NotReadableError).');
  });

  it('a table file’s preview comes back as its preview; one wider than SQLite allows as its reason', async () => {
    const p = await parsers.tablePreview(
      file('c.csv', 'Ada Lovelace,London\nGrace Hopper,Arlington\nAlan Turing,Wilmslow\n'),
    );
    expect(p).toMatchObject({ header: false, headerEvidence: { verdict: 'data' }, encoding: { name: 'utf-8' } });
    expect((await parsers.tablePreview(file('c.csv', 'a,b\n1,2\n'), { header: 'no' })).rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    const wide = Array.from({ length: 2001 }, (_, i) => `c${i}`).join(',');
    await expect(parsers.tablePreview(file('wide.csv', `${wide}\n`))).rejects.toThrow(
      'wide.csv has 2,001 columns; SQLite allows at most 2,000 in a table',
    );
  });
});
