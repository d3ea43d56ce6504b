// Imported values stored losslessly (issue 35, item 7).
import { describe, expect, it } from 'vitest';
import { fitsInt64, numberOf, roundedTo } from './column-types';

describe('numbers as a column stores them', () => {
  it('whole numbers within 64 bits: safe ones as numbers, the rest as their digits for SQLite to convert', () => {
    expect(numberOf('9007199254740991', 'INTEGER')).toBe(9007199254740991);
    expect(numberOf('9007199254740993', 'INTEGER')).toBe('9007199254740993');
    expect(numberOf('+1234567890123456789', 'INTEGER')).toBe('1234567890123456789');
    expect(numberOf('-9223372036854775808', 'INTEGER')).toBe('-9223372036854775808');
    expect(numberOf('9223372036854775808', 'INTEGER')).toBeNull();
    expect(numberOf('1.5', 'INTEGER')).toBeNull();
    expect(numberOf('007', 'REAL')).toBeNull();
  });

  it('knows SQLite’s 64-bit bounds', () => {
    expect(fitsInt64('9223372036854775807')).toBe(true);
    expect(fitsInt64('9223372036854775808')).toBe(false);
    expect(fitsInt64('-9223372036854775808')).toBe(true);
    expect(fitsInt64('-9223372036854775809')).toBe(false);
    expect(fitsInt64('123456789012345678901')).toBe(false);
  });

  it('says when a REAL rounds what was written, and not when it keeps it', () => {
    expect(roundedTo('0.30000000000000004', 0.30000000000000004)).toBeNull();
    expect(roundedTo('1.50000000000000000000', 1.5)).toBeNull();
    expect(roundedTo('123456789012.345', 123456789012.345)).toBeNull();
    expect(roundedTo('3.14159265358979323846', Number('3.14159265358979323846'))).toBe('3.141592653589793');
    expect(roundedTo('1234567890123456789', Number('1234567890123456789'))).toBe('1234567890123456800');
    expect(roundedTo('1e400', Infinity)).toBe('Infinity');
  });
});
