import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../random';
import { applyOverlay, bytesFile, overlaid, type PageOverlay } from './page-overlay';

/** A 6-page file of 512-byte pages, each byte its page number; a source of replacement pages. */
const file = Uint8Array.from({ length: 6 * 512 }, (_, i) => Math.floor(i / 512) + 1);
const source = Uint8Array.from({ length: 3 * 512 }, (_, i) => 100 + Math.floor(i / 512));

describe('page overlays', () => {
  it.each([
    ['shorter (a transaction had grown the file)', 4],
    ['longer (a transaction had cut it)', 8],
  ])('read in place give the bytes applied in memory: %s', (_, pageCount) => {
    const overlay: PageOverlay = {
      pageSize: 512,
      pageCount,
      pages: new Map([
        [2, 0],
        [pageCount, 1024],
      ]),
    };
    const applied = applyOverlay(file.slice(), bytesFile(source), overlay);
    expect(applied.length).toBe(pageCount * 512);
    expect(applied[512]).toBe(100);
    expect(applied[(pageCount - 1) * 512]).toBe(102);
    if (pageCount > 6) expect(applied[6 * 512]).toBe(0); // grown with zeros, as SQLite grows a file
    const inPlace = overlaid(bytesFile(file), bytesFile(source), overlay);
    expect(inPlace.size).toBe(applied.length);
    const next = mulberry32(3);
    for (let n = 0; n < 200; n++) {
      const offset = Math.floor(next() * inPlace.size);
      const into = new Uint8Array(1 + Math.floor(next() * 1500));
      const got = inPlace.read(offset, into);
      expect(got).toBe(Math.min(into.length, inPlace.size - offset));
      expect([...into.subarray(0, got)]).toEqual([...applied.subarray(offset, offset + got)]);
    }
  });
});
