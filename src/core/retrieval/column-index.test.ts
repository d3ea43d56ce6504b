import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import type { ColumnStats, Schema } from '../types';
import { ColumnIndex } from './column-index';
import { loadLexicon } from './lexicon';
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

  it('always returns k columns when the schema has them, the ones sharing nothing last with score 0', () => {
    const none = ColumnIndex.build(schema).search('zzz qqq', { k: 5 });
    expect(none).toHaveLength(5);
    expect(none.every((h) => h.score === 0 && h.reasons.includes('no word in common'))).toBe(true);
    const some = ColumnIndex.build(schema).search('stadium capacity', { k: 12 });
    expect(some).toHaveLength(12);
    expect(some[0].score).toBeGreaterThan(0);
    expect(some[11].score).toBe(0);
    // the filler starts with the columns of tables already listed
    const firstFiller = some.find((h) => h.score === 0)!;
    expect(['stadium', 'concert']).toContain(firstFiller.table);
    expect(ColumnIndex.build(schema).search('zzz', { k: 50 })).toHaveLength(
      schema.tables.reduce((n, t) => n + t.columns.length, 0),
    );
  });

  it('keeps "name" as a word of the question', () => {
    const hits = ColumnIndex.build(schema).search('What is the name of each singer?', { k: 1 });
    expect(names(hits)).toEqual(['singer.name']);
  });
});

describe('ColumnIndex reaching past the stem', () => {
  const perturbed = async (sql: string) => {
    const engine = await createNodeEngine();
    await engine.open({ id: 'p', name: 'p', bytes: await buildDb(sql) });
    return engine.introspect('p');
  };

  it('meets abbreviated names by general rules: skeletons, prefixes, acronyms, initial + word', async () => {
    const s = await perturbed(
      'CREATE TABLE cntry (cntry_cd TEXT, inhabitants INTEGER, gnp REAL, hp INTEGER, mpg REAL, dob TEXT, fname TEXT, qty INTEGER, cust_no INTEGER)',
    );
    const index = ColumnIndex.build(s, { lexicon: await loadLexicon() });
    const top = (q: string) => names(index.search(q, { k: 1 }))[0];
    expect(top('What is the country code?')).toBe('cntry.cntry_cd');
    expect(top('the gross national product of each')).toBe('cntry.gnp');
    expect(top('cars with the most horsepower')).toBe('cntry.hp');
    expect(top('average miles per gallon')).toBe('cntry.mpg');
    expect(top('their date of birth')).toBe('cntry.dob');
    expect(top('their first name')).toBe('cntry.fname');
    expect(top('total quantity')).toBe('cntry.qty');
  });

  it('meets synonyms, derived forms and attributes through WordNet, and stems one ending apart', async () => {
    const s = await perturbed(
      'CREATE TABLE people (id INTEGER, population INTEGER, height REAL, weight REAL, age INTEGER)',
    );
    const index = ColumnIndex.build(s, { lexicon: await loadLexicon() });
    const top = (q: string) => names(index.search(q, { k: 1 }))[0];
    expect(top('How many inhabitants are there?')).toBe('people.population');
    expect(top('Who is the tallest?')).toBe('people.height');
    expect(top('the oldest person')).toBe('people.age');
    expect(top('people weighing over 80')).toBe('people.weight');
    // without the lexicon, only the stem rule reaches "weight"
    expect(names(ColumnIndex.build(s).search('Who is the tallest?', { k: 1 }))[0]).not.toBe('people.height');
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

describe('ColumnIndex on names that are also object properties', () => {
  it('indexes tables and columns named constructor, toString or __proto__', async () => {
    const engine = await createNodeEngine();
    await engine.open({
      id: 'o',
      name: 'o',
      bytes: await buildDb('CREATE TABLE constructors ("constructor" TEXT, "toString" TEXT, "__proto__" TEXT)'),
    });
    const index = ColumnIndex.build(await engine.introspect('o'));
    expect(names(index.search('constructor name', { k: 1 }))).toEqual(['constructors.constructor']);
  });
});
