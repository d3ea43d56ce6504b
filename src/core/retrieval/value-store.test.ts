import { describe, expect, it } from 'vitest';
import { ValueCounter } from './value-store';

describe('ValueCounter.range', () => {
  it('gives the values of an id range as one string and their ends, inside a chunk and across chunks', () => {
    const counter = new ValueCounter();
    const value = (i: number) => `v${i}${'é'.repeat(i % 5)}`;
    for (let i = 0; i < 140_000; i++) counter.add(value(i), i % 3);
    counter.add(value(7), 7 % 3); // counted again, no new id
    counter.freeze();
    expect(counter.size).toBe(140_000);
    expect(counter.counts[7]).toBe(2);
    for (const [from, to] of [
      [0, 5000],
      [65_000, 70_000], // across the first chunk's end (65,536 values a chunk)
      [131_000, 140_000], // into the last chunk
      [10, 10],
    ]) {
      const { text, ends } = counter.range(from, to);
      expect(ends.length).toBe(to - from);
      for (let id = from, start = 0; id < to; start = ends[id - from], id++)
        expect(text.slice(start, ends[id - from])).toBe(counter.get(id));
    }
  });
});
