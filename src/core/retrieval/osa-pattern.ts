// Optimal string alignment distance from one word to many, bit-parallel (Hyyrö 2003, the
// transposition extension of Myers' algorithm, as in RapidFuzz's osa_hyrroe2003): the word's
// letters become bit masks once, then each other word costs a handful of integer operations per
// letter, instead of a band of the dynamic-programming table. The typo scan of value-typos.ts
// compares one query word with thousands of indexed words; this is its inner loop.
//
// Words up to 32 UTF-16 units fit one 32-bit mask; `distance` falls back to the table beyond.

import { osaDistance } from '../text/edit-distance';

const MAX_PATTERN = 32;

export class OsaPattern {
  /** Bit i set in ascii[c] when the word's i-th unit is c (c < 128). */
  private readonly ascii = new Int32Array(128);
  private readonly other = new Map<number, number>();
  private readonly fits: boolean;

  constructor(readonly word: string) {
    this.fits = word.length > 0 && word.length <= MAX_PATTERN;
    if (!this.fits) return;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (c < 128) this.ascii[c] |= 1 << i;
      else this.other.set(c, (this.other.get(c) ?? 0) | (1 << i));
    }
  }

  private mask(c: number): number {
    return c < 128 ? this.ascii[c] : (this.other.get(c) ?? 0);
  }

  /** OSA distance from the word to `text`; `max + 1` for anything above `max`. */
  distance(text: string, max: number): number {
    const m = this.word.length;
    if (Math.abs(m - text.length) > max) return max + 1;
    if (!this.fits) return osaDistance(this.word, text, max);
    let vp = -1; // m ones (the bits above m never reach the last row's bit)
    let vn = 0;
    let d0 = 0;
    let pmOld = 0;
    let dist = m;
    const last = 1 << (m - 1);
    for (let j = 0; j < text.length; j++) {
      const pm = this.mask(text.charCodeAt(j));
      const tr = ((~d0 & pm) << 1) & pmOld;
      // The sum may pass 32 bits: `^` takes it modulo 2^32, as an unsigned machine add would.
      d0 = (((pm & vp) + vp) ^ vp) | pm | vn | tr;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      if (hp & last) dist++;
      if (hn & last) dist--;
      hp = (hp << 1) | 1;
      hn = hn << 1;
      vp = hn | ~(d0 | hp);
      vn = hp & d0;
      pmOld = pm;
    }
    return dist <= max ? dist : max + 1;
  }
}
