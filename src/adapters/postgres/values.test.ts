import { describe, expect, it } from 'vitest';
import { integerValue, numericValue } from './values';

describe("PostgreSQL's numbers as values", () => {
  it('reads a numeric as a number, rounding only digits of the fraction a double cannot hold', () => {
    expect(numericValue('1234.50')).toBe(1234.5);
    // avg() of integers: 16 digits after the point, as SQLite's REAL gives it.
    expect(numericValue('3.6666666666666667')).toBe(3.6666666666666665);
    expect(numericValue('-0.0000000000000000001')).toBe(-1e-19);
  });

  it('keeps the text of a numeric whose whole part a double cannot hold, and of NaN', () => {
    expect(numericValue('1234567890123456789.5')).toBe('1234567890123456789.5');
    expect(numericValue('123456789012345')).toBe(123456789012345);
    expect(numericValue('NaN')).toBe('NaN');
  });

  it('reads an int8 beyond 2^53 as a bigint', () => {
    expect(integerValue('9007199254740993')).toBe(9007199254740993n);
    expect(integerValue('42')).toBe(42);
  });
});
