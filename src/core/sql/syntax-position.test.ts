import { describe, expect, it } from 'vitest';
import { withSyntaxPosition } from './syntax-position';

describe('withSyntaxPosition', () => {
  it('points at the token SQLite names', () => {
    expect(withSyntaxPosition('near "FRM": syntax error', 'SELECT *\n  FRM Track')).toBe(
      'near "FRM": syntax error (line 2, column 3)',
    );
  });
  it('skips the same text inside strings and comments', () => {
    expect(withSyntaxPosition('near "x": syntax error', "SELECT 'x' -- x\nx x")).toBe(
      'near "x": syntax error (line 2, column 1)',
    );
  });
  it('puts incomplete input at the end of the statement', () => {
    expect(withSyntaxPosition('incomplete input', 'SELECT (1 ')).toBe('incomplete input (line 1, column 10)');
  });
  it('leaves other messages alone', () => {
    expect(withSyntaxPosition('no such table: Trak', 'SELECT * FROM Trak')).toBe('no such table: Trak');
    expect(withSyntaxPosition('near "zz": syntax error', 'SELECT 1')).toBe('near "zz": syntax error');
  });
});
