import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor } from '../executor';
import { buildToolbox, type Toolbox } from '../tools/toolbox';

let box: Toolbox;
beforeAll(async () => {
  const engine = await createNodeEngine();
  const bytes = await buildDb(`
    CREATE TABLE Highschooler (ID INTEGER PRIMARY KEY, name TEXT, grade INTEGER);
    CREATE TABLE airports (AirportCode TEXT PRIMARY KEY, City TEXT);
    CREATE TABLE addresses (id INTEGER PRIMARY KEY, state TEXT);
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

  it('links a value stored without spaces, and a possessive to its name', () => {
    expect(lines('students who live in North Carolina')).toContain('North Carolina -> value addresses.state');
    expect(lines("Show Kyle's friends")).toContain("Kyle's -> value Highschooler.name");
  });
});
