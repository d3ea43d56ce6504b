import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../random';
import { OsaPattern } from './osa-pattern';
import { osaDistance } from '../text/edit-distance';

describe('OsaPattern', () => {
  it('gives the distance the dynamic-programming table gives, on 20,000 random pairs', () => {
    const random = mulberry32(7);
    const alphabet = 'abcdeé';
    const word = (max: number) =>
      Array.from({ length: Math.floor(random() * max) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
        '',
      );
    for (let i = 0; i < 20_000; i++) {
      const a = word(34);
      // Near variants as well as unrelated words: edits of a, so small distances are common.
      let b = i % 2 === 0 ? word(34) : a;
      if (i % 2 === 1)
        for (let e = Math.floor(random() * 4); e > 0; e--) {
          const at = Math.floor(random() * (b.length + 1));
          const r = random();
          b =
            r < 0.3
              ? b.slice(0, at) + 'x' + b.slice(at)
              : r < 0.6
                ? b.slice(0, at) + b.slice(at + 1)
                : r < 0.8
                  ? b.slice(0, at) + 'y' + b.slice(at + 1)
                  : b.slice(0, at) + b.slice(at + 1, at + 2) + b.slice(at, at + 1) + b.slice(at + 2);
        }
      const max = 1 + (i % 3);
      // osaDistance may return the whole distance past max: anything above max reads as max + 1.
      expect(new OsaPattern(a).distance(b, max), `${a} / ${b}`).toBe(Math.min(osaDistance(a, b), max + 1));
    }
  });

  it('counts a swap of two neighbouring letters as one edit, and an empty word', () => {
    expect(new OsaPattern('paris').distance('pairs', 2)).toBe(1);
    expect(new OsaPattern('parcel').distance('pacel', 2)).toBe(1);
    expect(new OsaPattern('kitten').distance('sitting', 5)).toBe(3);
    expect(new OsaPattern('').distance('ab', 2)).toBe(2);
    expect(new OsaPattern('x'.repeat(32)).distance('x'.repeat(31) + 'y', 2)).toBe(1);
  });
});
