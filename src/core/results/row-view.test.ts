import { describe, expect, it } from 'vitest';
import type { SqlValue } from '../types';
import {
  columnValues,
  rankColumn,
  compareValues,
  createRowView,
  isPlainView,
  nextSort,
  numberOf,
  parseColumnFilter,
  rowView,
  type ColumnFilter,
} from './row-view';

const rows: SqlValue[][] = [
  ['Germany', 83, '2024-03-01'],
  ['france', null, '2023-12-31'],
  ['Austria', 9, null],
  ['item 10', 9, '2024-01-15'],
  ['item 9', '12', '2024-01-15'],
  [null, 1.5, '2022-06-30'],
];
const col = (indices: number[], c: number) => indices.map((i) => rows[i][c]);

describe('rowView', () => {
  it('keeps the result order without sort or filter', () => {
    expect(rowView(rows, {})).toEqual([0, 1, 2, 3, 4, 5]);
    expect(isPlainView({ filters: new Map([[0, { kind: 'text', contains: '' }]]) })).toBe(true);
    expect(isPlainView({ sort: { column: 0, direction: 'asc' } })).toBe(false);
  });

  it('sorts text as people read it (any case, numbers within text by value), NULLs last', () => {
    const asc = rowView(rows, { sort: { column: 0, direction: 'asc' } });
    expect(col(asc, 0)).toEqual(['Austria', 'france', 'Germany', 'item 9', 'item 10', null]);
    const desc = rowView(rows, { sort: { column: 0, direction: 'desc' } });
    expect(col(desc, 0)).toEqual(['item 10', 'item 9', 'Germany', 'france', 'Austria', null]);
  });

  it('sorts numbers by value, before text, and stably: equal values keep their order', () => {
    const asc = rowView(rows, { sort: { column: 1, direction: 'asc' } });
    // 9 and 9 (rows 2 and 3) keep their order; '12' is text, after the numbers; NULL last.
    expect(asc).toEqual([5, 2, 3, 0, 4, 1]);
    const desc = rowView(rows, { sort: { column: 1, direction: 'desc' } });
    expect(desc).toEqual([4, 0, 2, 3, 5, 1]);
  });

  it('sorts ISO dates in time order', () => {
    const asc = rowView(rows, { sort: { column: 2, direction: 'asc' } });
    expect(col(asc, 2)).toEqual(['2022-06-30', '2023-12-31', '2024-01-15', '2024-01-15', '2024-03-01', null]);
  });

  it('filters by text a column contains, in any case, and by a number range (numbers stored as text too)', () => {
    const text = new Map<number, ColumnFilter>([[0, { kind: 'text', contains: 'AN' }]]);
    expect(col(rowView(rows, { filters: text }), 0)).toEqual(['Germany', 'france']);
    const range = new Map<number, ColumnFilter>([[1, { kind: 'range', min: 9, max: 20 }]]);
    expect(rowView(rows, { filters: range })).toEqual([2, 3, 4]);
    const below = new Map<number, ColumnFilter>([[1, { kind: 'range', max: 5 }]]);
    expect(rowView(rows, { filters: below })).toEqual([5]);
  });

  it('a quick filter keeps rows where any column contains the text; filters combine with a sort', () => {
    expect(rowView(rows, { quick: '2024-01' })).toEqual([3, 4]);
    expect(rowView(rows, { quick: ' item ', sort: { column: 1, direction: 'desc' } })).toEqual([4, 3]);
    expect(rowView(rows, { quick: 'nothing like it' })).toEqual([]);
  });

  it('blobs sort by bytes after text, and are not searched', () => {
    const b = (...x: number[]) => new Uint8Array(x);
    const blobs: SqlValue[][] = [[b(2)], ['text'], [b(1, 9)], [3]];
    expect(rowView(blobs, { sort: { column: 0, direction: 'asc' } })).toEqual([3, 1, 2, 0]);
    expect(rowView(blobs, { quick: '1' })).toEqual([]);
  });
});

describe('helpers', () => {
  it('a header click cycles ascending, descending, none; another column starts ascending', () => {
    expect(nextSort(null, 2)).toEqual({ column: 2, direction: 'asc' });
    expect(nextSort({ column: 2, direction: 'asc' }, 2)).toEqual({ column: 2, direction: 'desc' });
    expect(nextSort({ column: 2, direction: 'desc' }, 2)).toBeNull();
    expect(nextSort({ column: 2, direction: 'desc' }, 1)).toEqual({ column: 1, direction: 'asc' });
  });

  it('compares big integers with numbers and reads numbers stored as text', () => {
    expect(compareValues(9007199254740993n, 1)).toBeGreaterThan(0);
    expect(compareValues(2, 10n)).toBeLessThan(0);
    expect(numberOf(' 12.5 ')).toBe(12.5);
    expect(numberOf('12 apples')).toBeNull();
    expect(numberOf('')).toBeNull();
  });
});

describe('parseColumnFilter', () => {
  it.each([
    ['5..10', { kind: 'range', min: 5, max: 10 }],
    ['..-2.5', { kind: 'range', max: -2.5 }],
    ['100..', { kind: 'range', min: 100 }],
    ['>= 3', { kind: 'range', min: 3 }],
    ['<=3', { kind: 'range', max: 3 }],
    ['>3', { kind: 'range', min: 3, exclusive: true }],
    ['<3', { kind: 'range', max: 3, exclusive: true }],
    ['=7', { kind: 'range', min: 7, max: 7 }],
    ['Ger', { kind: 'text', contains: 'Ger' }],
    ['..', { kind: 'text', contains: '..' }],
    ['> abc', { kind: 'text', contains: '> abc' }],
  ])('%s', (input, expected) => {
    expect(parseColumnFilter(input)).toEqual(expected);
  });

  it('a strict bound leaves the bound out', () => {
    const values: SqlValue[][] = [[2], [3], [4]];
    expect(rowView(values, { filters: new Map([[0, parseColumnFilter('>3')]]) })).toEqual([2]);
    expect(rowView(values, { filters: new Map([[0, parseColumnFilter('<3')]]) })).toEqual([0]);
    expect(rowView(values, { filters: new Map([[0, parseColumnFilter('=3')]]) })).toEqual([1]);
  });
});

describe('ranks worked out elsewhere (a worker, for large results)', () => {
  const rows: SqlValue[][] = [['b'], [null], ['A'], [3], ['item 10'], ['item 9'], [new Uint8Array([1])], [3n]];
  it('sort exactly as the ranks the view works out itself', () => {
    const own = createRowView(rows);
    const given = createRowView(rows);
    given.addRanks(0, rankColumn(columnValues(rows, 0)));
    expect(given.hasRanks(0)).toBe(true);
    for (const direction of ['asc', 'desc'] as const)
      expect(given.view({ sort: { column: 0, direction } })).toEqual(own.view({ sort: { column: 0, direction } }));
    expect(own.view({ sort: { column: 0, direction: 'asc' } })).toEqual([3, 7, 2, 0, 5, 4, 6, 1]);
  });

  it('refuse ranks of other rows', () => {
    expect(() => createRowView(rows).addRanks(0, rankColumn([1, 2]))).toThrow(/other rows/);
  });
});

describe('the quick filter', () => {
  it('reads what is typed literally, in any case, over every column but blobs', () => {
    const rows: SqlValue[][] = [
      ['a.b', 1],
      ['axb', 2],
      ['(x', 3],
      [null, 'ÉCOLE'],
      [new Uint8Array([97]), 4],
    ];
    expect(rowView(rows, { quick: 'a.b' })).toEqual([0]);
    expect(rowView(rows, { quick: '(' })).toEqual([2]);
    expect(rowView(rows, { quick: 'école' })).toEqual([3]);
    expect(rowView(rows, { quick: 'A' })).toEqual([0, 1]);
  });
});
