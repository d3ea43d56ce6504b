import { describe, expect, it } from 'vitest';
import { blockCached, type RandomAccessFile } from './random-access';

function memoryFile(bytes: Uint8Array): RandomAccessFile & { calls: Array<[number, number]> } {
  const calls: Array<[number, number]> = [];
  return {
    size: bytes.length,
    calls,
    read(offset, into) {
      calls.push([offset, into.length]);
      const part = bytes.subarray(offset, offset + into.length);
      into.set(part);
      return part.length;
    },
    close() {},
  };
}

const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

describe('blockCached', () => {
  it('returns the same bytes as the source at any offset, across block edges and at the end', () => {
    const file = blockCached(memoryFile(bytes), { blockBytes: 64, maxBytes: 256 });
    for (const [offset, length] of [
      [0, 10],
      [60, 10],
      [100, 300],
      [990, 20],
      [1000, 5],
    ]) {
      const into = new Uint8Array(length);
      const n = file.read(offset, into);
      const want = bytes.subarray(offset, offset + length);
      expect(n).toBe(want.length);
      expect([...into.subarray(0, n)]).toEqual([...want]);
    }
  });

  it('reads a block from the source once while it is kept, and again after it was pushed out', () => {
    const source = memoryFile(bytes);
    const file = blockCached(source, { blockBytes: 100, maxBytes: 200 });
    const page = new Uint8Array(10);
    file.read(0, page);
    file.read(50, page);
    expect(source.calls).toEqual([[0, 100]]);
    file.read(150, page);
    file.read(250, page); // a third block: block 0 is the least recently used and goes
    file.read(20, page);
    expect(source.calls.map(([o]) => o)).toEqual([0, 100, 200, 0]);
    expect(file.blockReads()).toBe(4);
  });
});
