// Tool results that mislead (issue 8): hints name a column only with evidence, an aggregate over
// a join that matches nothing says which join, a declared key whose values never meet is
// flagged, and a join path honours the column it was asked for.

import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor } from '../executor';
import { buildToolbox, type Toolbox } from './toolbox';
import { unmark } from '../privacy/marks';

let toolbox: Toolbox;

beforeAll(async () => {
  const engine = await createNodeEngine();
  const bytes = await buildDb(`
    CREATE TABLE makers (id INTEGER PRIMARY KEY, Maker TEXT);
    CREATE TABLE models (model TEXT PRIMARY KEY, Maker INTEGER REFERENCES makers(id));
    CREATE TABLE cars (id INTEGER PRIMARY KEY, Model TEXT REFERENCES models(model), Make TEXT);
    INSERT INTO makers VALUES (1, 'amc'), (2, 'ford');
    INSERT INTO models VALUES ('rebel', 1), ('torino', 2);
    INSERT INTO cars VALUES (1, 'rebel', 'amc rebel sst'), (2, 'torino', 'ford torino');
    CREATE TABLE airports (AirportCode TEXT PRIMARY KEY, City TEXT);
    CREATE TABLE flights (id INTEGER PRIMARY KEY, SourceAirport TEXT REFERENCES airports(AirportCode), DestAirport TEXT REFERENCES airports(AirportCode));
    INSERT INTO airports VALUES ('ABR', 'Aberdeen'), ('ABI', 'Abilene');
    INSERT INTO flights VALUES (1, ' ABI', ' ABR'), (2, ' ABR', ' ABI');
    CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
    CREATE TABLE friend (student_id INTEGER REFERENCES person(id), friend_id INTEGER REFERENCES person(id));
    INSERT INTO person VALUES (1, 'a'), (2, 'b');
    INSERT INTO friend VALUES (1, 2);
  `);
  await engine.open({ id: 'x', name: 'x', bytes });
  toolbox = await buildToolbox(executorFor(engine, 'x'), await engine.introspect('x'));
});

const observe = async (name: string, args: unknown) => unmark((await toolbox.call(name, args)).observation);

describe('repair hints with evidence', () => {
  it('shows what a close column holds and where the wanted name really is, with the key to it', async () => {
    const text = await observe('execute_sql', { sql: 'SELECT cars.Maker FROM cars' });
    expect(text).toContain('Close names in cars (check they mean the same thing): cars.Make (TEXT;');
    expect(text).toContain('"amc rebel sst"');
    expect(text).toContain('Another table has a column named Maker: models.Maker (INTEGER;');
    expect(text).toContain('it joins by cars.Model = models.model');
  });
});

describe('an aggregate over nothing', () => {
  it('says which join matched no rows, with values of both sides', async () => {
    const text = await observe('execute_sql', {
      sql: "SELECT count(*) FROM flights JOIN airports ON flights.DestAirport = airports.AirportCode WHERE airports.City = 'Aberdeen'",
    });
    expect(text).toContain('The aggregate ran over no rows at all.');
    expect(text).toContain('The join `JOIN airports ON flights.DestAirport = airports.AirportCode` matches no rows');
    expect(text).toContain('flights.DestAirport holds e.g. " ABR"');
  });

  it('says nothing when the aggregate did see rows', async () => {
    const text = await observe('execute_sql', { sql: "SELECT count(*) FROM cars WHERE Make = 'none'" });
    expect(text).toContain('The aggregate ran over no rows at all.');
    expect(text).toContain("`Make = 'none'` keeps none of the 2 rows the rest of the query gives.");
    const fine = await observe('execute_sql', { sql: 'SELECT sum(0) FROM cars' });
    expect(fine).not.toContain('aggregate ran over no rows');
  });
});

describe('join paths', () => {
  it('warn about a declared key whose values never meet', async () => {
    const text = await observe('find_shortest_path', { start: 'flights.DestAirport', end: 'airports' });
    expect(text).toContain(
      'Warning: the declared key flights.DestAirport = airports.AirportCode matched none of 2 values',
    );
    expect(text).toContain('" ABR"');
    // They meet once the padding is trimmed: the warning says how, instead of guessing.
    expect(text).toContain('Most of them meet as TRIM(a) = TRIM(b).');
  });

  it('honour the column they were asked for', async () => {
    const text = await observe('find_shortest_path', { start: 'friend.student_id', end: 'person' });
    expect(text).toContain('"friend"."student_id" = "person"."id"');
    expect(text).not.toContain('friend_id');
    expect(text).toMatch(/^One shortest join path/);
  });

  it('give every path when the column asked for is no key', async () => {
    const text = await observe('find_shortest_path', { start: 'cars.Make', end: 'models' });
    expect(text).toMatch(/^One shortest join path from cars.Make to models/);
  });
});
