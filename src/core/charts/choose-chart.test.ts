import { describe, expect, it } from 'vitest';
import type { SqlValue } from '../types';
import { chooseChart, MAX_BARS, profileColumns } from './choose-chart';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('profileColumns', () => {
  it('reads numbers, ISO dates, years, identifiers, categories and free text', () => {
    const rows: SqlValue[][] = range(50).map((i) => [
      i + 1,
      `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
      2000 + (i % 5),
      ['web', 'store', 'phone'][i % 3],
      `Customer number ${i}`,
      'x'.repeat(80) + i,
      i * 1.5,
      null,
    ]);
    const kinds = profileColumns(
      ['customer_id', 'order_date', 'year', 'channel', 'name', 'note', 'total', 'empty'],
      rows,
    ).map((p) => p.kind);
    expect(kinds).toEqual(['identifier', 'date', 'date', 'category', 'text', 'text', 'number', 'empty']);
  });
});

describe('chooseChart', () => {
  it('none for no rows, one row, or no numbers', () => {
    expect(chooseChart(['n'], []).type).toBe('none');
    expect(chooseChart(['country', 'n'], [['France', 3]])).toMatchObject({ type: 'none', reason: /One row/ });
    expect(
      chooseChart(
        ['name', 'city'],
        [
          ['a', 'x'],
          ['b', 'y'],
        ],
      ),
    ).toMatchObject({ type: 'none', reason: /No column holds numbers/ });
  });

  it('a bar for each category with its number; summed when the category repeats', () => {
    const perCountry = chooseChart(
      ['country', 'customers'],
      [
        ['France', 3],
        ['Germany', 5],
        ['Kenya', 1],
      ],
    );
    expect(perCountry).toMatchObject({ type: 'bar', x: 0, y: 1, aggregate: 'none' });
    const repeated = chooseChart(
      ['channel', 'amount'],
      range(12).map((i) => [['web', 'store'][i % 2], i]),
    );
    expect(repeated).toMatchObject({ type: 'bar', x: 0, y: 1, aggregate: 'sum' });
  });

  it('a top-ten of unique names is a bar chart; hundreds of names are not', () => {
    const top = chooseChart(
      ['name', 'revenue'],
      range(10).map((i) => [`Person ${i}`, 100 - i]),
    );
    expect(top).toMatchObject({ type: 'bar', x: 0, y: 1 });
    const many = chooseChart(
      ['name', 'revenue'],
      range(300).map((i) => [`Person ${i}`, i]),
    );
    expect(many.type).not.toBe('bar');
    const tooManyBars = chooseChart(
      ['city', 'n'],
      range(MAX_BARS + 1).flatMap((i) => [
        [`City ${i}`, 1],
        [`City ${i}`, 2],
      ]),
    );
    expect(tooManyBars).toMatchObject({ type: 'none', reason: /too many bars/ });
  });

  it('a line over dates or years, one line per category when there are few', () => {
    const months = chooseChart(
      ['month', 'sales'],
      range(12).map((i) => [`2024-${String(i + 1).padStart(2, '0')}`, i * 10]),
    );
    expect(months).toMatchObject({ type: 'line', x: 0, y: 1, aggregate: 'none' });
    const byYear = chooseChart(
      ['year', 'films'],
      range(8).map((i) => [2000 + i, i]),
    );
    expect(byYear).toMatchObject({ type: 'line', x: 0, y: 1 });
    const perChannel = chooseChart(
      ['day', 'channel', 'orders'],
      range(30).map((i) => [`2024-01-0${(i % 9) + 1}`, ['web', 'store', 'phone'][i % 3], i]),
    );
    expect(perChannel).toMatchObject({ type: 'line', x: 0, series: 1, y: 2, aggregate: 'sum' });
  });

  it('grouped bars for two categories and a number, unless the second goes with the first one to one', () => {
    const grouped = chooseChart(
      ['country', 'channel', 'orders'],
      range(12).map((i) => [['France', 'Kenya', 'Peru', 'Chad'][i % 4], ['web', 'store', 'phone'][i % 3], i]),
    );
    expect(grouped).toMatchObject({ type: 'grouped-bar', x: 0, series: 1, y: 2 });
    const nameAndCode = chooseChart(
      ['country', 'code', 'people'],
      [
        ['France', 'FR', 3],
        ['Kenya', 'KE', 4],
        ['Peru', 'PE', 5],
      ],
    );
    expect(nameAndCode).toMatchObject({ type: 'bar', x: 0, y: 2 });
  });

  it('a scatter for two measures, a histogram for one', () => {
    const pairs = chooseChart(
      ['horsepower', 'weight'],
      range(20).map((i) => [100 + i, 2000 + i * 7]),
    );
    expect(pairs).toMatchObject({ type: 'scatter', x: 0, y: 1 });
    const spread = chooseChart(
      ['age'],
      range(40).map((i) => [18 + (i % 30)]),
    );
    expect(spread).toMatchObject({ type: 'histogram', x: 0, aggregate: 'count' });
    expect(
      chooseChart(
        ['flag'],
        range(10).map((i) => [i % 2]),
      ).type,
    ).toBe('none');
  });

  it('counts per identifier are bars where no category names the rows', () => {
    const perStudent = chooseChart(
      ['stuid', 'pets'],
      range(6).map((i) => [1000 + i, i % 3]),
    );
    // 'stuid' is not named as an identifier: two numbers, a scatter.
    expect(perStudent.type).toBe('scatter');
    const perId = chooseChart(
      ['student_id', 'pets'],
      range(6).map((i) => [1000 + i, i % 3]),
    );
    expect(perId).toMatchObject({ type: 'bar', x: 0, y: 1 });
  });

  it('an aggregate per whole number is a bar for each; a single bar is none', () => {
    const perGrade = chooseChart(
      ['grade', 'count(*)'],
      [9, 10, 11, 12].map((g) => [g, 4]),
    );
    expect(perGrade).toMatchObject({ type: 'bar', x: 0, y: 1 });
    const oneName = chooseChart(
      ['first_name', 'age'],
      [
        ['Ann', 20],
        ['Ann', 22],
      ],
    );
    expect(oneName).toMatchObject({ type: 'none', reason: /one value/ });
  });

  it('flight, phone and version numbers name things: not drawn as measures', () => {
    const flights = chooseChart(
      ['FlightNo'],
      range(30).map((i) => [100 + i]),
    );
    expect(flights.type).toBe('none');
    expect(profileColumns(['phone_number', 'OrderNumber'], [[5551234, 7]]).map((p) => p.kind)).toEqual([
      'identifier',
      'identifier',
    ]);
  });
});
