import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/random';
import { encodeShort } from './bulk-insert';

describe('encodeShort', () => {
  it('writes what TextEncoder writes: ASCII, 2-, 3- and 4-byte characters, lone surrogates', () => {
    const random = mulberry32(5);
    const samples = ['', 'plain', 'Zoë Genève', '€ 12,50', '日本語', '𝄞 clef', 'a\uD800b', '\uDC00x', 'end\uD83D'];
    const pool = [0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff];
    for (let n = 0; n < 2000; n++)
      samples.push(
        String.fromCharCode(
          ...Array.from({ length: 1 + Math.floor(random() * 12) }, () => pool[Math.floor(random() * pool.length)]),
        ),
      );
    const encoder = new TextEncoder();
    for (const s of samples) {
      const out = new Uint8Array(s.length * 3 + 4).fill(0xaa);
      const written = encodeShort(s, out, 2);
      expect([...out.subarray(2, 2 + written)]).toEqual([...encoder.encode(s)]);
      expect(out[0]).toBe(0xaa);
    }
  });
});
