import { describe, expect, it } from 'vitest';
import { COMPACT_ABOVE_CHARS, compactObservation } from './compact';

const values = [
  'Values matching "Chinese" in countrylanguage.Language, best first:',
  '"Chinese" in countrylanguage.Language (19 rows)',
  '"Canton Chinese" in countrylanguage.Language (3 rows, prefix)',
  '"Mandarin Chinese" in countrylanguage.Language (2 rows, prefix)',
  '"Chin" in countrylanguage.Language (1 row, fuzzy)',
  '"Chinook" in countrylanguage.Language (1 row, fuzzy)',
  '"Chichewa" in countrylanguage.Language (1 row, fuzzy)',
  '"Chiu chau" in countrylanguage.Language (1 row, fuzzy)',
].join('\n');

describe('compactObservation', () => {
  it('keeps a short observation whole', () => {
    expect(compactObservation('search_value', 'Plan recorded.', 'anything')).toBe('Plan recorded.');
  });

  it('keeps the first line and the lines the reply used', () => {
    expect(values.length).toBeGreaterThan(COMPACT_ABOVE_CHARS);
    const out = compactObservation('search_value', values, `SELECT * FROM t WHERE Language = 'Mandarin Chinese'`);
    expect(out.split('\n')).toEqual([
      'Values matching "Chinese" in countrylanguage.Language, best first:',
      '"Mandarin Chinese" in countrylanguage.Language (2 rows, prefix)',
      '[6 more lines of this result left out: already read]',
    ]);
  });

  it('keeps the best line when the reply used none', () => {
    const out = compactObservation('search_value', values, 'I will look at the join path now.');
    expect(out.split('\n').slice(0, 2)).toEqual(values.split('\n').slice(0, 2));
  });

  it('keeps columns, the first rows and the count of an execute_sql result', () => {
    const rows = Array.from({ length: 20 }, (_, i) => `"City number ${i} of the list"`);
    const text = ['Columns: Name', ...rows, '(20 of 359 rows shown)', 'Took 10 ms.'].join('\n');
    const out = compactObservation('execute_sql', text, 'done');
    expect(out.split('\n')).toEqual([
      'Columns: Name',
      '"City number 0 of the list"',
      '"City number 1 of the list"',
      '"City number 2 of the list"',
      '(20 of 359 rows shown)',
      '[18 more lines of this result left out: already read]',
    ]);
  });

  it('never shortens an error: its detail is what the repair needs', () => {
    const error = `Error (sql_error): no such column: x\n${'hint line\n'.repeat(60)}`;
    expect(compactObservation('execute_sql', error, 'fix')).toBe(error);
  });
});
