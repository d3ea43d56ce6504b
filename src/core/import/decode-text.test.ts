// The encoding of a table file decided and said (issue 35, item 8).
import { describe, expect, it } from 'vitest';
import { decodeTable } from './decode-text';
import { encodingSentence, otherEncoding } from './imported-file';

const utf8 = (s: string) => new TextEncoder().encode(s);
const utf16 = (s: string, order: 'le' | 'be', bom = true) => {
  const out: number[] = bom ? (order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    out.push(...(order === 'le' ? [c & 0xff, c >> 8] : [c >> 8, c & 0xff]));
  }
  return new Uint8Array(out);
};

describe('decodeTable', () => {
  it('valid UTF-8 is UTF-8; a UTF-8 mark is dropped', () => {
    expect(decodeTable(utf8('a,b\nJosé,1\n'))).toEqual({
      text: 'a,b\nJosé,1\n',
      name: 'utf-8',
      why: 'valid',
      replaced: 0,
    });
    expect(decodeTable(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('x')]))).toMatchObject({ text: 'x', why: 'bom' });
  });

  it('UTF-16 by its mark, either order, and by its zero bytes without one', () => {
    expect(decodeTable(utf16('a\tb\nZoë\t1\n', 'le'))).toMatchObject({
      text: 'a\tb\nZoë\t1\n',
      name: 'utf-16le',
      why: 'bom',
    });
    expect(decodeTable(utf16('a\tb\n', 'be'))).toMatchObject({ text: 'a\tb\n', name: 'utf-16be', why: 'bom' });
    expect(decodeTable(utf16('a,b\n1,2\n', 'le', false))).toMatchObject({ text: 'a,b\n1,2\n', why: 'utf16-bytes' });
    expect(decodeTable(utf16('a,b\n', 'be', false), 'utf-16')).toMatchObject({ text: 'a,b\n', name: 'utf-16be' });
  });

  it('mostly UTF-8 with stray bytes stays UTF-8, and counts them with the first line', () => {
    const bytes = new Uint8Array([...utf8('name\nJosé\nRenée\n'), 0xff, 0xfe, ...utf8('Genève\n')]);
    const d = decodeTable(bytes);
    expect(d).toMatchObject({ name: 'utf-8', why: 'mostly-utf8', replaced: 2, firstLine: 4 });
    expect(d.text).toContain('José');
    expect(encodingSentence(d, '')).toBe(
      'read as UTF-8, but 2 bytes are no UTF-8 and show as \uFFFD (first on line 4)',
    );
    expect(otherEncoding(d)).toBe('windows-1252');
  });

  it('bytes with no UTF-8 in them are Windows-1252; the person may choose another', () => {
    const bytes = Uint8Array.from('Café,Crème\n', (c) => c.charCodeAt(0));
    const d = decodeTable(bytes);
    expect(d).toMatchObject({ text: 'Café,Crème\n', name: 'windows-1252', why: 'looks-1252' });
    expect(otherEncoding(d)).toBe('utf-8');
    expect(decodeTable(utf8('José'), 'windows-1252')).toMatchObject({ text: 'JosÃ©', why: 'chosen' });
    expect(encodingSentence(decodeTable(utf8('x'), 'windows-1252'), 'as chosen')).toBe(
      'read as Windows-1252 (as chosen)',
    );
  });

  it('a preview cut inside a character does not count it as a stray byte', () => {
    const bytes = utf8('a\nZoë');
    const d = decodeTable(bytes.subarray(0, bytes.length - 1), 'auto', true);
    expect(d).toMatchObject({ name: 'utf-8', why: 'valid', text: 'a\nZo' });
  });
});
