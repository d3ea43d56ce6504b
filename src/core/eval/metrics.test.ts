import { describe, expect, it } from 'vitest';
import { allAtK, MeanAccumulator, mean, recallAtK, res, round4, tablesOf } from './metrics';

const c = (table: string, column: string) => ({ table, column });

describe('recallAtK', () => {
  const gold = [c('singer', 'name'), c('singer', 'age'), c('concert', 'year')];
  const ranked = [
    c('singer', 'Name'),
    c('stadium', 'name'),
    c('Concert', 'Year'),
    c('singer', 'country'),
    c('singer', 'age'),
  ];

  it('is the share of gold columns in the first k, case-insensitively', () => {
    expect(recallAtK(gold, ranked, 1)).toBeCloseTo(1 / 3, 12);
    expect(recallAtK(gold, ranked, 3)).toBeCloseTo(2 / 3, 12);
    expect(recallAtK(gold, ranked, 4)).toBeCloseTo(2 / 3, 12);
    expect(recallAtK(gold, ranked, 5)).toBe(1);
    expect(recallAtK(gold, ranked, 10)).toBe(1);
    expect(recallAtK(gold, ranked, 0)).toBe(0);
  });

  it('counts duplicated gold columns once and is null without gold', () => {
    expect(recallAtK([c('t', 'a'), c('T', 'A'), c('t', 'b')], [c('t', 'a')], 5)).toBe(0.5);
    expect(recallAtK([], ranked, 5)).toBeNull();
  });

  it('does not confuse a column with the same name in another table', () => {
    expect(recallAtK([c('singer', 'name')], [c('stadium', 'name')], 5)).toBe(0);
  });
});

describe('allAtK', () => {
  it('is 1 only when every gold column is in the top k', () => {
    const gold = [c('t', 'a'), c('t', 'b')];
    expect(allAtK(gold, [c('t', 'a'), c('u', 'x'), c('t', 'b')], 3)).toBe(1);
    expect(allAtK(gold, [c('t', 'a'), c('u', 'x'), c('t', 'b')], 2)).toBe(0);
    expect(allAtK([], [c('t', 'a')], 2)).toBeNull();
  });
});

describe('res', () => {
  it('is sqrt(|gold|/|retrieved|) when every gold table is retrieved, else 0', () => {
    expect(res(['singer'], ['singer'])).toBe(1);
    expect(res(['singer'], ['Singer', 'concert', 'stadium', 'singer_in_concert'])).toBe(0.5);
    expect(res(['singer', 'concert'], ['singer', 'concert', 'stadium'])).toBeCloseTo(Math.sqrt(2 / 3), 12);
    expect(res(['singer', 'concert'], ['singer', 'stadium'])).toBe(0);
    expect(res(['singer'], [])).toBe(0);
  });

  it('counts duplicates once and is null without gold tables', () => {
    expect(res(['t', 'T'], ['t', 't', 'u', 'U'])).toBeCloseTo(Math.sqrt(1 / 2), 12);
    expect(res([], ['t'])).toBeNull();
  });
});

describe('aggregation', () => {
  it('mean skips nulls and says over how many', () => {
    expect(mean([1, 0, null, 0.5, undefined])).toEqual({ value: 0.5, n: 3 });
    expect(mean([null])).toEqual({ value: null, n: 0 });
  });

  it('MeanAccumulator adds, merges and reports n', () => {
    const a = new MeanAccumulator();
    a.add(1);
    a.add(null);
    a.add(0);
    const b = new MeanAccumulator();
    b.add(0.5);
    a.merge(b);
    expect(a.result()).toEqual({ value: 0.5, n: 3 });
    expect(new MeanAccumulator().result()).toEqual({ value: null, n: 0 });
  });

  it('tablesOf keeps first-seen order and first spelling; round4 rounds', () => {
    expect(tablesOf([c('b', 'x'), c('A', 'y'), c('B', 'z'), c('a', 'w')])).toEqual(['b', 'A']);
    expect(round4(2 / 3)).toBe(0.6667);
    expect(round4(null)).toBeNull();
  });
});
