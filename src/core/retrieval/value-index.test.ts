import { beforeAll, describe, expect, it } from 'vitest';
import { ValueIndex, ValueIndexBuilder } from './value-index';

type Column = { table: string; column: string; values: Record<string, number> };

function column(table: string, name: string, values: Record<string, number>): Column {
  return { table, column: name, values };
}

// 40k filler values that all share "the" and "item": the common-word case.
const filler = column(
  'catalog',
  'title',
  Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`The item number ${i}`, 1])),
);

const COLUMNS: Column[] = [
  column('cities', 'name', {
    Paris: 120,
    Oslo: 40,
    'New York': 300,
    'New Delhi': 80,
    Newark: 20,
    Springfield: 15,
    'São Paulo': 60,
    Zürich: 10,
    'Café Town': 2,
  }),
  column('people', 'first_name', { John: 50, Johanna: 5, Mary: 40, Jon: 3 }),
  column('people', 'full_name', { 'John Smith': 3, 'Mary Jones': 2, 'Paris Hilton': 1, 'Jonathan Smithers': 1 }),
  column('shops', 'name', { 'Café de Flore': 1, 'Cafe Luna': 4, 'The Paris Bakery': 2 }),
  column('grades', 'code', { A: 300, B: 200, AB: 10 }),
  filler,
];

let index: ValueIndex;
beforeAll(async () => {
  index = await ValueIndex.fromValues(COLUMNS);
});

const top = (query: string, options = {}) => index.search(query, options).map((h) => h.value);

describe('ValueIndex.search', () => {
  it('puts the exact value first, whatever its case or accents', () => {
    expect(index.search('Paris')[0]).toMatchObject({
      table: 'cities',
      column: 'name',
      value: 'Paris',
      rows: 120,
      match: 'exact',
    });
    expect(top('paris')[0]).toBe('Paris');
    expect(top('SAO PAULO')[0]).toBe('São Paulo');
    expect(top('The item number 123')[0]).toBe('The item number 123');
  });

  it('completes the start of a value', () => {
    expect(top('Springf')[0]).toBe('Springfield');
    expect(top('New Yo')[0]).toBe('New York');
    expect(top('Jonathan Smi')[0]).toBe('Jonathan Smithers');
    expect(index.search('Springf')[0].match).toBe('prefix');
  });

  it('finds values with one wrong, missing or extra letter', () => {
    expect(top('Osla')[0]).toBe('Oslo');
    expect(top('Springfeld')[0]).toBe('Springfield');
    expect(top('Parris')[0]).toBe('Paris');
    expect(index.search('Springfeld')[0].match).toBe('fuzzy');
  });

  it('finds values with two letters swapped', () => {
    expect(top('Pairs')[0]).toBe('Paris');
    expect(top('Jhon')[0]).toBe('John');
    expect(top('Jhon Smith')[0]).toBe('John Smith');
    expect(top('Zuirch')[0]).toBe('Zürich');
  });

  it('folds accents both ways', () => {
    expect(top('cafe town')[0]).toBe('Café Town');
    expect(top('Zurich')[0]).toBe('Zürich');
    expect(top('Cafe de Flore')[0]).toBe('Café de Flore');
  });

  it('finds a value named inside a question', () => {
    expect(top('Which customers live in Paris?', { k: 3 })).toContain('Paris');
    expect(top('How many shops does John Smith own?', { k: 3 })).toContain('John Smith');
  });

  it('scopes by table and column, case-insensitively', () => {
    const inPeople = index.search('Paris', { table: 'PEOPLE' });
    expect(inPeople.length).toBeGreaterThan(0);
    expect(inPeople.every((h) => h.table === 'people')).toBe(true);
    expect(inPeople[0].value).toBe('Paris Hilton');
    const jons = index.search('jon', { table: 'people', column: 'First_Name' });
    expect(jons.length).toBeGreaterThan(0);
    expect(jons.every((h) => h.column === 'first_name')).toBe(true);
    const names = index.search('Paris', { column: 'name' });
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((h) => h.column === 'name')).toBe(true);
    expect(index.search('Paris', { table: 'nowhere' })).toEqual([]);
  });

  it('looks for spelling neighbours only when no value in scope is spelt as the query', async () => {
    const small = await ValueIndex.fromValues([
      column('a', 'name', { Mariana: 1 }),
      column('b', 'name', { Marianna: 1 }),
    ]);
    const values = (q: string, options = {}) => small.search(q, options).map((h) => h.value);
    expect(values('Mariena')).toEqual(expect.arrayContaining(['Mariana', 'Marianna'])); // misspelt: both
    expect(values('Mariana')).toEqual(['Mariana']); // stored as typed: no neighbours
    expect(values('Mariana', { table: 'b' })).toEqual(['Marianna']); // not stored in b: neighbours there
  });

  it('finds a value one edit from a 3-letter word, exact values and known words first', async () => {
    const music = await ValueIndex.fromValues([
      column('genres', 'name', { Rock: 12, Pop: 9, Jazz: 4, Ska: 2, 'Hip Hop': 3 }),
      column('artists', 'name', { 'Rod Stewart': 1, 'Rob Thomas': 1 }),
    ]);
    const values = (q: string, options = {}) => music.search(q, options).map((h) => h.value);
    expect(music.search('Rok')[0]).toMatchObject({ value: 'Rock', match: 'fuzzy' });
    expect(values('Jaz', { column: 'name', table: 'genres' })[0]).toBe('Jazz');
    expect(values('Pop')).toEqual(['Pop']); // spelt as stored: no neighbours ("Hop")
    expect(values('rod')).toEqual(['Rod Stewart']); // a word the index holds: not "Rob Thomas"
  });

  it('returns at most k hits', () => {
    expect(index.search('item')).toHaveLength(5);
    const two = index.search('new', { k: 2 });
    expect(two).toHaveLength(2);
    expect(two.every((h) => h.value.startsWith('New'))).toBe(true);
    expect(index.search('item', { k: 20 })).toHaveLength(20);
  });

  it('matches 1-2 character queries only to whole values', () => {
    expect(index.search('a')).toEqual([expect.objectContaining({ value: 'A', match: 'case' })]);
    expect(top('ab')).toEqual(['AB']);
    expect(index.search('zz')).toEqual([]);
  });

  it('answers very common words with bounded results', () => {
    const hits = index.search('the', { k: 5 });
    expect(hits.length).toBeLessThanOrEqual(5);
    expect(hits.length).toBeGreaterThan(0);
    expect(index.search('the item', { k: 5 })).toHaveLength(5);
    expect(index.search('', { k: 5 })).toEqual([]);
    expect(index.search('!!!', { k: 5 })).toEqual([]);
  });

  it('finds values holding a word more values hold than one search scores (the posting budget)', async () => {
    // 90,000 notes hold "refund"; every third holds "courier" too: past the budget of 80,000.
    const notes = Object.fromEntries(
      Array.from({ length: 90_000 }, (_, i) => [`${i % 3 ? 'late' : 'courier'} refund ${i} box`, 1 + (i % 4)]),
    );
    const big = await ValueIndex.fromValues([column('tickets', 'note', notes)]);
    const refund = big.search('refund');
    expect(refund).toHaveLength(5);
    for (const h of refund) expect(h.value).toMatch(/ refund /);
    const both = big.search('courier refund');
    expect(both.length).toBeGreaterThan(0);
    for (const h of both) expect(h.value).toMatch(/^courier refund /);
    expect(big.search('refund parcel').every((h) => h.value.includes('refund'))).toBe(true);
    // A misspelt common word stands for the word it is close to.
    expect(big.search('refnud')[0]?.value).toMatch(/ refund /);
    // A word no value holds (a code) leaves nothing to match: the values holding the other are not hits.
    expect(big.search('refund x7q9z')).toEqual([]);
  });

  it('gives no close spelling for a code no value is near: sharing its prefix is not enough', async () => {
    const codes = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [`EV-${((i * 2654435761) % 4294967296).toString(16).toUpperCase()}`, 1]),
    );
    const coded = await ValueIndex.fromValues([column('events', 'code', codes)]);
    expect(coded.search('EV-FC9D0E40')).toEqual([]);
    const [some] = Object.keys(codes).slice(7);
    const typo = some.slice(0, -1) + (some.endsWith('0') ? '1' : '0');
    expect(coded.search(typo)[0]?.value).toBe(some);
  });

  it('finds "City 5" for a misspelt "Citty 5" among a thousand cities, the number telling them apart', async () => {
    const cities: Record<string, number> = {};
    for (let n = 0; n < 1000; n++) {
      const i = (n * 7919) % 1000; // met in no order, the frequent ones anywhere
      cities[`City ${i}`] = Math.max(1, Math.round(85_000 / (i + 1)));
    }
    const index = await ValueIndex.fromValues([column('events', 'city', cities)]);
    expect(index.search('Citty 5')[0]?.value).toBe('City 5');
    expect(index.search('Cty 7')[0]?.value).toBe('City 7');
  });

  it('scores a value found elsewhere on the same scale', () => {
    const hit = index.search('Paris')[0];
    expect(index.score('Paris', 'Paris', 120)).toBeCloseTo(hit.score);
    expect(index.score('Paris', 'Parisian Lofts', 1)).toBeLessThan(hit.score);
  });

  it('finds values with two edits in a long word, and stems across word forms', async () => {
    const more = await ValueIndex.fromValues([
      column('places', 'name', { Belmarford: 3, 'North Belmarwick': 1 }),
      column('jobs', 'title', { 'Software Engineering': 2, Weight: 1 }),
    ]);
    expect(more.search('Bxlmarfrod')[0]).toMatchObject({ value: 'Belmarford', match: 'fuzzy' });
    expect(more.search('software engineer')[0].value).toBe('Software Engineering');
    expect(more.search('weights')[0].value).toBe('Weight');
  });

  it('reports build progress to the end, and can be cancelled', async () => {
    const seen: number[] = [];
    let total = 0;
    const builder = new ValueIndexBuilder();
    const sink = builder.columnNamed('t', 'c', null);
    for (let i = 0; i < 120_000; i++) sink.add(`value ${i}`, null);
    await builder.finish({
      onProgress: (done, all) => {
        seen.push(done);
        total = all;
      },
    });
    expect(seen[0]).toBe(0);
    expect(seen[seen.length - 1]).toBe(total);
    expect(total).toBeGreaterThan(0);
    const ctrl = new AbortController();
    ctrl.abort();
    const other = new ValueIndexBuilder();
    other.columnNamed('t', 'c', null).add('x', null);
    await expect(other.finish({ signal: ctrl.signal })).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('indexes nothing for columns without values, and leaves dates to SQL', async () => {
    const empty = await ValueIndex.fromValues([column('t', 'c', {})]);
    expect(empty.size).toBe(0);
    expect(empty.search('Paris')).toEqual([]);
    const dates = await ValueIndex.fromValues([
      column('t', 'd', { '2019-03-04': 2, '2019-03-04 12:33:11': 1, '12:30': 1, 'March 2019': 1 }),
    ]);
    expect(dates.size).toBe(1);
    expect(dates.columns[0]).toMatchObject({ values: 1, dates: 4, policy: 'partial' });
    expect(dates.columns[0].note).toMatch(/4 date\/time values are not indexed/);
  });

  it('counts the bytes it holds', () => {
    expect(index.memoryBytes()).toBeGreaterThan(40_000 * 10);
    expect(index.memoryBytes()).toBeLessThan(40_000 * 1_000);
  });
});
