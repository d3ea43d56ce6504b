import { describe, expect, it } from 'vitest';
import { comparePyStrings, pyBytesRepr, pyCell, pyFloatRepr, pyRows } from './py-values';

describe('Python spellings', () => {
  it.each([
    [1, '1.0'],
    [0.5, '0.5'],
    [-2.25, '-2.25'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [123456789.125, '123456789.125'],
    [-0, '-0.0'],
    [Infinity, 'inf'],
  ])('repr(%s) is %s', (x, text) => {
    expect(pyFloatRepr(x)).toBe(text);
  });

  it('writes bytes as Python does', () => {
    expect(pyBytesRepr(new Uint8Array([0x41, 0x00, 0x27, 0x0a]))).toBe(`b"A\\x00'\\n"`);
    expect(pyBytesRepr(new Uint8Array([0x5c, 0xff]))).toBe("b'\\\\\\xff'");
  });

  it('orders strings by code point', () => {
    expect(comparePyStrings('\u{1F600}', '\uFF5E')).toBeGreaterThan(0); // UTF-16 units would say less
    expect(comparePyStrings('a', 'ab')).toBeLessThan(0);
  });
});

describe('cells', () => {
  it('reads integers and reals apart by the storage classes seen in the column', () => {
    expect(pyCell(5, ['integer']).sortKey).toBe("5<class 'int'>");
    expect(pyCell(5, ['real']).sortKey).toBe("5.0<class 'float'>");
    expect(pyCell(5, ['integer', 'real']).sortKey).toBe("5<class 'int'>");
    expect(pyCell(5.5, ['integer', 'real']).sortKey).toBe("5.5<class 'float'>");
    expect(pyCell(null).sortKey).toBe("None<class 'NoneType'>");
  });

  it('makes 1 and 1.0 equal, 2^53+1 and 2^53 not, text and numbers never', () => {
    expect(pyCell(1, ['integer']).eq).toBe(pyCell(1, ['real']).eq);
    expect(pyCell(9007199254740993n).eq).not.toBe(pyCell(9007199254740992, ['real']).eq);
    expect(pyCell('1').eq).not.toBe(pyCell(1, ['integer']).eq);
    expect(pyCell(new Uint8Array([65])).eq).not.toBe(pyCell('A').eq);
  });

  it('types every row of a result', () => {
    const rows = pyRows({ rows: [[1, 'a', null]], columnTypes: [['real'], ['text'], []] });
    expect(rows[0].map((c) => c.sortKey)).toEqual(["1.0<class 'float'>", "a<class 'str'>", "None<class 'NoneType'>"]);
  });
});
