// A File of a given size that must not be read: each way of reading it (text, arrayBuffer,
// stream, bytes, slice) is counted in `reads` and throws. For the tests that a file too large is
// refused by its size alone (issue item 11).

export function unreadFile(name: string, size: number): { file: File; reads: string[] } {
  const reads: string[] = [];
  const file = new File(['x'], name);
  Object.defineProperty(file, 'size', { value: size });
  for (const method of ['text', 'arrayBuffer', 'stream', 'bytes', 'slice'])
    Object.defineProperty(file, method, {
      value: () => {
        reads.push(method);
        throw new Error(`the test file "${name}" was read (${method})`);
      },
    });
  return { file, reads };
}
