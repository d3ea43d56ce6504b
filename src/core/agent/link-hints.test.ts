import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { unmark } from '../privacy/marks';
import { executorFor } from '../executor';
import type { QuestionLink } from '../retrieval/linker';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import { linkHints, valueLinkHints } from './link-hints';

const l = (text: string, start: number, kind: QuestionLink['kind'], table: string, column?: string, score = 1) =>
  ({ start, end: start + text.length, text, kind, table, column, score }) as QuestionLink;
const v = (text: string, start: number, table: string, column: string, value: string, score = 1): QuestionLink => ({
  ...l(text, start, 'value', table, column, score),
  value,
});
const lines = (hints: string) => unmark(hints).split('\n');

describe('linkHints, tables only (the prompt does not list the columns)', () => {
  it('keeps exact and value links, drops partial links a stronger link explains, caps the rest', () => {
    const hints = linkHints([
      l('singers', 9, 'exact', 'singer'),
      l('singers', 9, 'partial', 'singer_in_concert', undefined, 0.5),
      l('singers', 9, 'partial', 'singer', 'Singer_ID', 0.5),
      ...Array.from({ length: 8 }, (_, i) => l(`w${i}`, 30 + i * 3, 'partial', `t${i}`, undefined, 0.1 * i)),
    ]).split('\n');
    expect(hints[0]).toBe('- "singers": names table singer');
    expect(hints.some((h) => h.includes('singer_in_concert'))).toBe(false);
    expect(hints.filter((h) => h.includes('may be part of'))).toHaveLength(4);
    expect(hints[1]).toBe('- "w7": may be part of table t7');
  });

  it('writes a span that is part of several names as one line naming them all, never one pick', () => {
    const hints = linkHints([
      l('date', 20, 'partial', 'inventory_snapshots', 'snapshot_date', 0.35),
      l('date', 20, 'partial', 'sales', 'sale_date', 0.35),
    ]);
    expect(hints).toBe(
      '- "date": may be part of one of: column inventory_snapshots.snapshot_date, column sales.sale_date',
    );
  });

  it('lists at most six names for a span, then how many more', () => {
    const hints = linkHints(Array.from({ length: 9 }, (_, i) => l('name', 5, 'exact', `t${i}`, 'name', 0.9)));
    expect(hints.split('\n')).toHaveLength(1);
    expect(hints).toBe(
      '- "name": names one of: column t0.name, column t1.name, column t2.name, column t3.name, column t4.name, column t5.name, … (3 more)',
    );
  });

  it('never cuts a table before every linked table has a line', () => {
    // Twelve strong lines about one table, then the right one about another, weaker.
    const hints = linkHints([
      ...Array.from({ length: 12 }, (_, i) => l(`c${i}`, i * 4, 'exact', 'airport', `c${i}`, 0.9)),
      l('to airport', 60, 'exact', 'flight', 'to_airport', 0.85),
    ]).split('\n');
    expect(hints).toHaveLength(12);
    expect(hints).toContain('- "to airport": names column flight.to_airport');
    // Strongest first all the same: the extra table's line is written last.
    expect(hints[11]).toBe('- "to airport": names column flight.to_airport');
    expect(hints[0]).toBe('- "c0": names column airport.c0');
  });

  it('then gives each column a line before a repeat', () => {
    const hints = linkHints([
      ...Array.from({ length: 12 }, (_, i) => v(`x${i}`, i * 4, 'flight', 'from_airport', `X${i}`)),
      v('y', 60, 'flight', 'to_airport', 'Y', 0.6),
    ]);
    expect(unmark(hints)).toContain('- "y": the value "Y" in flight.to_airport');
  });
});

describe('linkHints when the prompt lists every column', () => {
  const links = [
    l('names', 9, 'partial', 'Student', 'LName', 0.35),
    l('students', 22, 'exact', 'Student'),
    v('Paris', 40, 'Student', 'city', 'Paris'),
  ];

  it('sends only the value links: names the model reads in the listing are not picked for it', () => {
    expect(lines(linkHints(links, { columnsListed: true }))).toEqual(['- "Paris": the value "Paris" in Student.city']);
    expect(lines(valueLinkHints(links))).toEqual(['- "Paris": the value "Paris" in Student.city']);
    expect(linkHints(links)).toContain('names table Student');
  });

  it('quotes the values for the privacy gate', () => {
    expect(valueLinkHints(links)).not.toBe(unmark(valueLinkHints(links)));
  });

  it('caps the value lines too, each table first', () => {
    const hints = lines(
      valueLinkHints([
        ...Array.from({ length: 13 }, (_, i) => v(`x${i}`, i * 4, 'a', 'c', `x${i}`)),
        v('y', 80, 'b', 'c', 'y', 0.6),
      ]),
    );
    expect(hints).toHaveLength(12);
    expect(hints).toContain('- "y": the value "y" in b.c');
  });
});

describe('value links need evidence', () => {
  it('drops a one-word value link when the same word names a table or column', () => {
    const links = [l('paper', 5, 'exact', 'Paper'), v('paper', 5, 'Templates', 'template_type', 'Paper', 0.6)];
    expect(linkHints(links)).toBe('- "paper": names table Paper');
    expect(valueLinkHints(links)).toBe('');
  });

  it('keeps a value of several words, and a one-word value no name claims', () => {
    const links = [
      l('high school', 0, 'exact', 'school', 'high_school'),
      v('high school', 0, 'school', 'kind', 'High School'),
      v('Paris', 20, 'city', 'name', 'Paris'),
    ];
    expect(lines(valueLinkHints(links))).toEqual([
      '- "high school": the value "High School" in school.kind',
      '- "Paris": the value "Paris" in city.name',
    ]);
  });
});

describe('linkHints over linkQuestion', () => {
  let box: Toolbox;
  beforeAll(async () => {
    const engine = await createNodeEngine();
    const bytes = await buildDb(`
      CREATE TABLE Paper (paper_id INTEGER PRIMARY KEY, title TEXT);
      CREATE TABLE Templates (template_id INTEGER PRIMARY KEY, template_type TEXT);
      CREATE TABLE sales (id INTEGER PRIMARY KEY, sale_date TEXT, amount REAL);
      CREATE TABLE inventory_snapshots (id INTEGER PRIMARY KEY, snapshot_date TEXT, qty INTEGER);
      INSERT INTO Paper VALUES (1, 'On linking');
      INSERT INTO Templates VALUES (1, 'Paper'), (2, 'Book');
    `);
    await engine.open({ id: 'h', name: 'h', bytes });
    box = await buildToolbox(executorFor(engine, 'h'), await engine.introspect('h'));
  });

  it('"papers" names the table Paper, not the template type \'Paper\'; "books" is a value', () => {
    expect(linkHints(box.link('How many papers are there?'))).toBe('- "papers": names table Paper');
    expect(valueLinkHints(box.link('How many papers are there?'))).toBe('');
    expect(lines(valueLinkHints(box.link('Which templates are books?')))).toEqual([
      '- "books": the value "Book" in Templates.template_type',
    ]);
  });

  it('"date" may be either date column: one line with both, nothing when the columns are listed', () => {
    const links = box.link('Total amount by date');
    expect(linkHints(links).split('\n')).toEqual([
      '- "amount": names column sales.amount',
      '- "date": may be part of one of: column inventory_snapshots.snapshot_date, column sales.sale_date',
    ]);
    expect(linkHints(links, { columnsListed: true })).toBe('');
  });
});

// Issue 37, item 2: a value hint needs evidence — the same word (or its plural), distinctive in
// its column, not a piece of a longer value the question names.
describe('value hints with evidence, over linkQuestion', () => {
  let box: Toolbox;
  beforeAll(async () => {
    const engine = await createNodeEngine();
    const bytes = await buildDb(`
      CREATE TABLE languages (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE teams (id INTEGER PRIMARY KEY, country TEXT, home TEXT);
      CREATE TABLE regions (id INTEGER PRIMARY KEY, region TEXT);
      CREATE TABLE makers (id INTEGER PRIMARY KEY, full_name TEXT, region_id INTEGER);
      CREATE TABLE customers (id INTEGER PRIMARY KEY, status TEXT);
      CREATE TABLE accounts (id INTEGER PRIMARY KEY, state TEXT);
      CREATE TABLE devices (id INTEGER PRIMARY KEY, mode TEXT);
      INSERT INTO languages VALUES (1, 'Korean'), (2, 'Dutch'), (3, 'Welsh');
      INSERT INTO teams VALUES (1, 'Korea', 'Persan'), (2, 'Wales', 'Cardiff'), (3, 'Netherlands', 'Leiden');
      INSERT INTO regions VALUES (1, 'northern'), (2, 'southern');
      INSERT INTO makers VALUES (1, 'Northern Motor Works', 1), (2, 'Delta Cycles', 2);
      INSERT INTO customers VALUES (1, 'active'), (2, 'closed');
      INSERT INTO accounts VALUES (1, 'active'), (2, 'frozen');
      INSERT INTO devices VALUES (1, 'active'), (2, 'idle');
    `);
    await engine.open({ id: 'v', name: 'v', bytes });
    box = await buildToolbox(executorFor(engine, 'v'), await engine.introspect('v'));
  });
  const hints = (q: string) => lines(valueLinkHints(box.link(q))).filter(Boolean);

  it('"Korea" is the value in teams.country, not the language "Korean" (another word of the stem)', () => {
    expect(box.link('Which teams are from Korea?').some((l) => l.value === 'Korean')).toBe(true);
    expect(hints('Which teams are from Korea?')).toEqual(['- "Korea": the value "Korea" in teams.country']);
  });

  it('a close spelling that is no plural is said to be one, not given as the value', () => {
    expect(hints('Which teams play in Persian cities?')).toEqual([
      '- "Persian": close to the value "Persan" in teams.home (not written the same: a misspelling, or another value)',
    ]);
  });

  it('a word inside a longer stored value the question names belongs to that value', () => {
    expect(box.link('Cars by Northern Motor Works').some((l) => l.value === 'northern')).toBe(true);
    expect(hints('Cars by Northern Motor Works')).toEqual([
      '- "Northern Motor Works": the value "Northern Motor Works" in makers.full_name',
    ]);
  });

  it('a word stored in three columns is a hint only in a table the question names', () => {
    expect(hints('How many active devices are there?')).toEqual(['- "active": the value "active" in devices.mode']);
    expect(hints('How many are active?')).toEqual([]);
  });
});
