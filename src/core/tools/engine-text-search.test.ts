import { describe, expect, it } from 'vitest';
import { codeWords, likePattern } from './engine-text-search';

describe('codeWords', () => {
  it('finds the words of a question that look like stored codes, with their place', () => {
    expect(codeWords('Where is order EV-9E3779B1, and sku a12/7?')).toEqual([
      { text: 'EV-9E3779B1', start: 15, end: 26 },
      { text: 'a12/7', start: 36, end: 41 },
    ]);
  });

  it('leaves plain words, bare numbers and short codes alone', () => {
    expect(codeWords('orders in 2024 over 1500 by customer 42 in room B7')).toEqual([]);
  });
});

describe('likePattern', () => {
  it("escapes LIKE's own characters", () => {
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
