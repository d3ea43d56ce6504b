import { describe, expect, it } from 'vitest';
import { isIdentifierColumn, numberText } from './number-format';

// The test runner's locale is English (en-US grouping with commas).
describe('numberText', () => {
  it('groups digits from five on, keeping years and short numbers as they are', () => {
    expect(numberText(146934000, 'population', false)).toBe('146,934,000');
    expect(numberText(2024, 'year_opened', false)).toBe('2024');
    expect(numberText(12345.678, 'amount', false)).toBe('12,345.678');
    expect(numberText(-98765n, 'delta', false)).toBe('-98,765');
  });

  it('keeps identifiers, codes and raw mode as stored', () => {
    expect(numberText(146934000, 'population', true)).toBe('146934000');
    expect(numberText(100234, 'customer_id', false)).toBe('100234');
    expect(numberText(100234, 'CustomerId', false)).toBe('100234');
    expect(numberText(90210, 'zip', false)).toBe('90210');
  });

  it('never rounds: values a format would change are shown as stored', () => {
    expect(numberText(0.1 + 0.2, 'x', false)).toBe('0.30000000000000004');
    expect(numberText(1e21, 'x', false)).toBe('1e+21');
    expect(numberText(1.5e-7, 'x', false)).toBe(String(1.5e-7));
  });

  it('knows identifier names from ordinary ones', () => {
    for (const n of ['id', 'ID', 'order_id', 'OrderID', 'postal_code', 'Phone'])
      expect(isIdentifierColumn(n)).toBe(true);
    for (const n of ['paid', 'valid', 'price', 'width', 'episode']) expect(isIdentifierColumn(n)).toBe(false);
  });
});
