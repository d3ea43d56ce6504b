import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor } from '../executor';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import { withEvidence, type QuestionLink } from './linker';

let box: Toolbox;
beforeAll(async () => {
  const engine = await createNodeEngine();
  const bytes = await buildDb(`
    CREATE TABLE Highschooler (ID INTEGER PRIMARY KEY, name TEXT, grade INTEGER);
    CREATE TABLE airports (AirportCode TEXT PRIMARY KEY, City TEXT);
    CREATE TABLE addresses (id INTEGER PRIMARY KEY, state TEXT);
    CREATE TABLE tongues (code TEXT, language TEXT);
    INSERT INTO tongues VALUES ('A', 'Maya Languages'), ('B', 'English');
    INSERT INTO Highschooler VALUES (1, 'Kyle', 10);
    INSERT INTO airports VALUES ('ABR', 'Aberdeen '), ('ABI', 'Abilene');
    INSERT INTO addresses VALUES (1, 'NorthCarolina'), (2, 'Virginia');
  `);
  await engine.open({ id: 'l', name: 'l', bytes });
  box = await buildToolbox(executorFor(engine, 'l'), await engine.introspect('l'));
});

const lines = (q: string) =>
  box.link(q).map((l) => `${l.text} -> ${l.kind} ${l.table}${l.column ? '.' + l.column : ''}`);

describe('linkQuestion', () => {
  it('joins split words to a name: "high schoolers" is the table Highschooler', () => {
    expect(lines('Show the names of all high schoolers in grade 10.')).toContain(
      'high schoolers -> exact Highschooler',
    );
  });

  it('never swallows a stop word into a value: "Aberdeen or" is not a value', () => {
    const found = lines('flights landing in Aberdeen or Abilene');
    expect(found).toContain('Aberdeen -> value airports.City');
    expect(found.some((l) => l.startsWith('Aberdeen or'))).toBe(false);
  });

  it('links a misspelt value, but not a phrase whose differing word is another short word', () => {
    expect(lines('flights landing in Abilenne')).toContain('Abilenne -> value airports.City');
    expect(lines('How many languages are spoken in each country?').filter((l) => l.includes('-> value'))).toEqual([]);
    expect(lines('Who speaks Mayan Languages?')).toContain('Mayan Languages -> value tongues.language');
  });

  it('links a value stored without spaces, and a possessive to its name', () => {
    expect(lines('students who live in North Carolina')).toContain('North Carolina -> value addresses.state');
    expect(lines("Show Kyle's friends")).toContain("Kyle's -> value Highschooler.name");
  });
});

describe('withEvidence', () => {
  it('drops a one-word value link when the same word names a table, keeps other values', () => {
    const link = (text: string, start: number, kind: QuestionLink['kind'], table: string, value?: string) =>
      ({
        start,
        end: start + text.length,
        text,
        kind,
        table,
        column: value ? 'kind' : undefined,
        value,
        score: 1,
      }) as QuestionLink;
    const kept = withEvidence([
      link('paper', 0, 'exact', 'Paper'),
      link('paper', 0, 'value', 'Templates', 'Paper'),
      link('book', 10, 'value', 'Templates', 'Book'),
    ]);
    expect(kept.map((l) => `${l.text} ${l.kind}`)).toEqual(['paper exact', 'book value']);
  });

  it('linkQuestion links a word that names a table to the table only', async () => {
    const engine = await createNodeEngine();
    const bytes = await buildDb(`
      CREATE TABLE Paper (paper_id INTEGER PRIMARY KEY, title TEXT);
      CREATE TABLE Templates (template_id INTEGER PRIMARY KEY, template_type TEXT);
      INSERT INTO Templates VALUES (1, 'Paper'), (2, 'Book');
    `);
    await engine.open({ id: 'e', name: 'e', bytes });
    const papers = await buildToolbox(executorFor(engine, 'e'), await engine.introspect('e'));
    const found = (q: string) => papers.link(q).map((l) => `${l.text} -> ${l.kind} ${l.table}`);
    expect(found('List every paper')).toEqual(['paper -> exact Paper', 'paper -> partial Paper']);
    expect(found('Which templates are books?')).toContain('books -> value Templates');
  });
});
