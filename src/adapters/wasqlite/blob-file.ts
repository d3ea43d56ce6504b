// A File read where it lies, in a worker: FileReaderSync over slices of the Blob (issue 26).
// The Blob is a handle to the user's file; nothing is copied whole, and nothing can write to it.

import { blockCached, type RandomAccessFile } from '../../core/db/random-access';

export function openBlobFile(blob: Blob): RandomAccessFile {
  if (typeof FileReaderSync === 'undefined') throw new Error('Reading a file in place needs a worker.');
  const reader = new FileReaderSync();
  return blockCached({
    size: blob.size,
    read(offset, into) {
      const part = new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, offset + into.length)));
      into.set(part);
      return part.length;
    },
    close() {},
  });
}
