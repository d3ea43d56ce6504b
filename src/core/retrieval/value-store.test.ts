import { describe, expect, it } from 'vitest';
import { TextCounter, utf16Length, ValueCounter } from './value-store';

describe('ValueCounter.range', () => {
  it('gives the values of an id range as bytes of their own and their ends, over the array growing', () => {
    const counter = new ValueCounter();
    const value = (i: number) => `v${i}${'é'.repeat(i % 5)}`;
    for (let i = 0; i < 140_000; i++) counter.add(value(i), i % 3);
    counter.add(value(7), 7 % 3); // counted again, no new id
    counter.freeze();
    expect(counter.size).toBe(140_000);
    expect(counter.counts[7]).toBe(2);
    for (const [from, to] of [
      [0, 5000],
      [65_000, 70_000],
      [131_000, 140_000], // the last values
      [10, 10],
    ]) {
      const { bytes, ends, units } = counter.range(from, to);
      if (to > from) expect(units[units.length - 1]).toBe(new TextDecoder().decode(bytes).length);
      expect(ends.length).toBe(to - from);
      const decoder = new TextDecoder();
      for (let id = from, start = 0; id < to; start = ends[id - from], id++) {
        expect(decoder.decode(bytes.subarray(start, ends[id - from]))).toBe(counter.get(id));
        expect(counter.get(id)).toBe(value(id));
      }
    }
  });
});

describe('cells as UTF-8 bytes', () => {
  const encode = (v: string) => new TextEncoder().encode(v);

  it('counts a value given as text or as bytes once, and the same text of two columns apart', () => {
    const counter = new ValueCounter();
    const bytes = encode('xxZoë Ashtonyy');
    const a = counter.add('Zoë Ashton', 0);
    expect(counter.addBytes(bytes, 2, bytes.length - 4, 'Zoë Ashton'.length, 0)).toBe(a);
    expect(counter.add('Zoë Ashton', 1)).not.toBe(a);
    expect(counter.add('Zoë Ashto', 0)).not.toBe(a);
    const long = 'ü'.repeat(600); // longer than the scratch buffer first made
    const b = counter.add(long, 0);
    expect(counter.addBytes(encode(long), 0, 1200, 600, 0)).toBe(b);
    counter.freeze();
    expect([counter.get(a), counter.get(b), counter.counts[a], counter.counts[b]]).toEqual(['Zoë Ashton', long, 2, 2]);

    const texts = new TextCounter();
    const note = 'ä long note '.repeat(40);
    expect(texts.add(note, 7, 0)).toBe(0);
    expect(texts.addBytes(encode(note), 0, encode(note).length, 9, 0)).toBe(-1); // seen before
    expect(texts.add(note, 9, 1)).toBe(1);
    texts.freeze();
    expect([texts.counts[0], texts.rowids[0]]).toEqual([2, 7]);
  });

  it('measures lengths in UTF-16 units, as JavaScript does', () => {
    for (const v of ['', 'Paris', 'Zoë', '東京', '😀 ok', '\uFEFF'])
      expect(utf16Length(encode(v), 0, encode(v).length)).toBe(v.length);
  });
});

describe('ValueCounter.compare', () => {
  it("orders values by their UTF-8 bytes, as SQLite's BINARY collation (and min, max) do", () => {
    const texts = ['b', 'a', 'ab', '', 'Z', 'é', '\uE000', '😀', 'a\u0000b', 'abc'];
    const counter = new ValueCounter();
    const ids = texts.map((t) => counter.add(t, 0));
    const utf8 = (t: string) => Buffer.from(t, 'utf8');
    const bySql = [...texts].sort((a, b) => Buffer.compare(utf8(a), utf8(b)));
    expect([...ids].sort((a, b) => counter.compare(a, b)).map((id) => counter.get(id))).toEqual(bySql);
    // UTF-16 order puts the emoji (a surrogate pair) before U+E000; UTF-8 and SQLite after it.
    expect(bySql.indexOf('😀')).toBeGreaterThan(bySql.indexOf('\uE000'));
  });
});
