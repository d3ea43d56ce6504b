import { describe, expect, it } from 'vitest';
import type { SqlValue } from '../types';
import { chartData, MAX_POINTS } from './chart-data';
import { chooseChart, type ChartType } from './choose-chart';

const drawn = (columns: string[], rows: SqlValue[][]) => {
  const choice = chooseChart(columns, rows);
  if (choice.type === 'none') throw new Error(choice.reason);
  return chartData(columns, rows, { ...choice, type: choice.type as ChartType });
};

describe('chartData', () => {
  it('a bar per category, summed where the category repeats, and said in words', () => {
    const d = drawn(
      ['channel', 'amount'],
      [
        ['web', 5],
        ['store', 2],
        ['web', 7],
        ['store', null],
      ],
    );
    expect(d.points).toEqual([
      { x: 'web', y: 12 },
      { x: 'store', y: 2 },
    ]);
    expect(d.yLabel).toBe('sum of amount');
    expect(d.skipped).toBe(1);
    expect(d.description).toBe('Bar chart of sum of amount by channel: 2 points; highest web, 12; lowest store, 2.');
  });

  it('says "all" when every bar is as high as the others', () => {
    const d = chartData(
      ['channel', 'n'],
      [
        ['web', 4],
        ['store', 4],
      ],
      { type: 'bar', x: 0, y: 1, reason: '' },
    );
    expect(d.description).toBe('Bar chart of n by channel: 2 points, all 4.');
  });

  it('a line over dates in time order, one per series', () => {
    const rows: SqlValue[][] = [
      ['2024-03-01', 'web', 3],
      ['2024-01-01', 'web', 1],
      ['2024-01-01', 'store', 2],
      ['2024-03-01', 'store', 5],
      ['2024-01-01', 'web', 4],
    ];
    const d = drawn(['day', 'channel', 'orders'], rows);
    expect(d.type).toBe('line');
    expect(d.xIsDate).toBe(true);
    expect(d.points.map((p) => [p.x, p.series, p.y])).toEqual([
      ['2024-01-01', 'web', 5],
      ['2024-01-01', 'store', 2],
      ['2024-03-01', 'web', 3],
      ['2024-03-01', 'store', 5],
    ]);
    expect(d.description).toContain('one line per channel');
  });

  it('a histogram keeps every value; a scatter of many points is sampled evenly and says so', () => {
    const ages = Array.from({ length: 40 }, (_, i): SqlValue[] => [18 + (i % 30)]);
    const h = drawn(['age'], ages);
    expect(h.type).toBe('histogram');
    expect(h.points).toHaveLength(40);
    expect(h.description).toContain('from 18 to 47');
    const many = Array.from({ length: MAX_POINTS * 2 + 1 }, (_, i): SqlValue[] => [i, i * 2]);
    const s = drawn(['a', 'b'], many);
    expect(s.type).toBe('scatter');
    expect(s.points).toHaveLength(MAX_POINTS);
    expect(s.sampled).toBe(true);
    expect(s.points[0]).toEqual({ x: 0, y: 0 });
    expect(s.description).toContain(`${MAX_POINTS} of ${MAX_POINTS * 2 + 1} points drawn`);
  });

  it('numbers stored as text are read; text that is not a number is left out', () => {
    const d = chartData(
      ['city', 'n'],
      [
        ['A', '12'],
        ['B', 'n/a'],
        ['C', 3],
      ],
      { type: 'bar', x: 0, y: 1, aggregate: 'none', reason: '' },
    );
    expect(d.points).toEqual([
      { x: 'A', y: 12 },
      { x: 'C', y: 3 },
    ]);
    expect(d.skipped).toBe(1);
  });
});
