import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import type { ColumnStats, Schema } from '../types';
import { ColumnIndex } from './column-index';
import { linkQuestion, valueLinksOf } from './linker';
import type { ValueHit } from './types';

let schema: Schema;
let stats: Map<string, ColumnStats>;

beforeAll(async () => {
  const engine = await createNodeEngine();
  const bytes = await buildDb(`
    CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT, country TEXT, birth_year INTEGER, is_male INTEGER);
    CREATE TABLE concert (concert_id INTEGER PRIMARY KEY, concert_name TEXT, theme TEXT, stadium_id INTEGER REFERENCES stadium(stadium_id), year INTEGER);
    CREATE TABLE stadium (stadium_id INTEGER PRIMARY KEY, location TEXT, capacity INTEGER);
    CREATE TABLE singer_in_concert (concert_id INTEGER REFERENCES concert(concert_id), singer_id INTEGER REFERENCES singer(singer_id), PRIMARY KEY (concert_id, singer_id));
    CREATE TABLE "Order Details" ("OrderID" INTEGER, "UnitPrice" REAL, "Qty" INTEGER);
    INSERT INTO singer VALUES (1,'Joe Sharp','Netherlands',1970,1),(2,'Timbaland','United States',1972,1),(3,'Justin Brown','France',1980,1),(4,'Rose White','France',1984,0);
    INSERT INTO concert VALUES (1,'Auditions','Free choice',1,2014),(2,'Super bootcamp','Free choice 2',2,2014);
    INSERT INTO stadium VALUES (1,'Raith Rovers',10104),(2,'Ayr United',11998);
  `);
  await engine.open({ id: 'c', name: 'c', bytes });
  schema = await engine.introspect('c');
  stats = new Map();
  for (const t of schema.tables)
    for (const c of t.columns) stats.set(`${t.name}.${c.name}`, await engine.columnStats('c', t.name, c.name));
});

const names = (hits: Array<{ table: string; column: string }>) => hits.map((h) => `${h.table}.${h.column}`);

describe('ColumnIndex', () => {
  it('ranks columns named in the question first, with their statistics', () => {
    const index = ColumnIndex.build(schema, { stats });
    const hits = index.search('What is the capacity of each stadium?', { k: 3 });
    expect(names(hits)[0]).toBe('stadium.capacity');
    expect(hits[0].stats?.distinctCount).toBe(2);
    expect(hits[0].reasons).toContain('exact name');
  });

  it('meets abbreviations and plurals: "quantity" finds Qty, "unit prices" finds UnitPrice', () => {
    const index = ColumnIndex.build(schema, { stats });
    expect(names(index.search('total quantity ordered', { k: 2 }))).toContain('Order Details.Qty');
    expect(names(index.search('unit prices', { k: 1 }))).toEqual(['Order Details.UnitPrice']);
  });

  it('adds the join keys between the tables a question is about', () => {
    const index = ColumnIndex.build(schema, { stats });
    const hits = names(index.search('names of singers who performed in a concert in 2014', { k: 10 }));
    expect(hits).toEqual(expect.arrayContaining(['singer.name', 'singer_in_concert.singer_id', 'singer.singer_id']));
  });

  it('uses value links: a country named in the question points at singer.country', () => {
    const values = {
      search: (q: string): ValueHit[] =>
        q.toLowerCase() === 'france'
          ? [{ table: 'singer', column: 'country', value: 'France', rows: 2, score: 1, match: 'exact' }]
          : [],
    };
    const index = ColumnIndex.build(schema, { stats });
    const question = 'How many performers come from France?';
    const links = linkQuestion(question, schema, values);
    const hits = index.search(question, { k: 3, valueLinks: valueLinksOf(links) });
    expect(names(hits)[0]).toBe('singer.country');
    expect(hits[0].reasons).toContain('value link: "France"');
  });

  it('takes a semantic score when embeddings are available', () => {
    const index = ColumnIndex.build(schema, { stats });
    const semantic = new Float32Array(index.columns.length).fill(0.1);
    semantic[index.indexOf('singer', 'is_male')!] = 0.9;
    expect(names(index.search('gender of the artist', { k: 1, semantic }))).toEqual(['singer.is_male']);
  });

  it('returns nothing for a question with no matching words', () => {
    expect(ColumnIndex.build(schema).search('zzz qqq', { k: 5 })).toEqual([]);
  });
});

describe('linkQuestion', () => {
  it('finds exact, partial and value links with offsets', () => {
    const values = {
      search: (q: string): ValueHit[] =>
        q === 'Joe Sharp'
          ? [{ table: 'singer', column: 'name', value: 'Joe Sharp', rows: 1, score: 1, match: 'exact' }]
          : [],
    };
    const q = 'Which concert themes did Joe Sharp sing in, by stadium capacity?';
    const links = linkQuestion(q, schema, values);
    const find = (kind: string, text: string) => links.find((l) => l.kind === kind && l.text === text);
    expect(find('exact', 'concert')).toMatchObject({ table: 'concert' });
    expect(find('exact', 'capacity')).toMatchObject({ table: 'stadium', column: 'capacity' });
    expect(find('value', 'Joe Sharp')).toMatchObject({ table: 'singer', column: 'name', value: 'Joe Sharp' });
    const theme = find('exact', 'themes');
    expect(theme).toMatchObject({ table: 'concert', column: 'theme' });
    expect(q.slice(theme!.start, theme!.end)).toBe('themes');
    expect(links.some((l) => l.kind === 'partial' && l.column === 'birth_year' && l.text === 'stadium')).toBe(false);
  });
});
