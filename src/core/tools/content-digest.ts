// What confirms that a kept index is this file's (issue 35, item 3): a checksum over every byte of
// the file, taken when the index is kept and again before it is reused. The cheap identity (size,
// modification time, first 64 KiB: toolboxKey) only finds a candidate; two files can share it
// (`cp -p`, `touch -r`, archives, coarse timestamps) and then only their content tells them apart.
// The hash itself is the host's (ContentHasher: a wasm xxHash64 in both the page and the CLI,
// decision 072), so core stays pure.

import { eventYielder } from '../yield';

/** A streaming hash over bytes, provided by the host. */
export interface ContentHasher {
  /** Kept with the digest: a digest taken another way is never compared with this one. */
  readonly algorithm: string;
  start(): Promise<HashRun>;
}

export interface HashRun {
  update(bytes: Uint8Array): void;
  /** Hex text. */
  digest(): string;
}

/** The checksum of a whole file, as a snapshot keeps it. */
export interface ContentDigest {
  algorithm: string;
  digest: string;
  sizeBytes: number;
}

/** Bytes read at a time: a Blob read in the page's worker is twice as fast in 32 MiB slices as in 4 MiB ones (decision 072). */
export const DIGEST_CHUNK_BYTES = 32 * 1024 * 1024;

/** Where the bytes come from: the file read in place, or the bytes read into memory. */
export interface ContentSource {
  readonly size: number;
  /** Fills `into` from `offset`; returns how many bytes were read (fewer only at the end). */
  read(offset: number, into: Uint8Array): number;
}

/** Bytes in memory as a content source (a server's change state, written out as text). */
export function bytesSource(bytes: Uint8Array): ContentSource {
  return {
    size: bytes.length,
    read(offset, into) {
      const part = bytes.subarray(offset, offset + into.length);
      into.set(part);
      return part.length;
    },
  };
}

/**
 * Hashes every byte of `source` in order, a chunk at a time; `onProgress` hears the bytes done.
 * Throws when the source ends before its size (the file shrank while it was read).
 */
export async function digestContent(
  source: ContentSource,
  hasher: ContentHasher,
  onProgress?: (done: number, total: number) => void,
): Promise<ContentDigest> {
  const run = await hasher.start();
  const size = source.size;
  const chunk = new Uint8Array(Math.max(1, Math.min(DIGEST_CHUNK_BYTES, size)));
  // Other work (a query, a progress message) gets in between chunks.
  const yieldNow = eventYielder();
  let done = 0;
  while (done < size) {
    const want = Math.min(chunk.length, size - done);
    const n = source.read(done, chunk.subarray(0, want));
    if (n <= 0) throw new Error('the file ended before its size while its checksum was taken');
    run.update(chunk.subarray(0, n));
    done += n;
    onProgress?.(done, size);
    await yieldNow();
  }
  return { algorithm: hasher.algorithm, digest: run.digest(), sizeBytes: size };
}

/** The same content, hashed the same way. */
export const sameContent = (a: ContentDigest, b: ContentDigest): boolean =>
  a.algorithm === b.algorithm && a.digest === b.digest && a.sizeBytes === b.sizeBytes;
