// Reads a File in chunks so a progress bar can move; the page stays responsive because each
// chunk arrives asynchronously. Parsing happens later, in the worker.

import { checkFileSize } from '../../core/db/file-check';

export async function readFileWithProgress(file: Blob, onProgress: (fraction: number) => void): Promise<Uint8Array> {
  checkFileSize(file.size);
  const out = new Uint8Array(file.size);
  const reader = file.stream().getReader();
  let offset = 0;
  let lastReport = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out.set(value, offset);
    offset += value.length;
    if (offset - lastReport > 4 * 1024 * 1024 || offset === file.size) {
      lastReport = offset;
      onProgress(offset / file.size);
    }
  }
  return offset === out.length ? out : out.subarray(0, offset);
}
