// The file checksum of kept indexes (issue 35, item 3; decision 072): xxHash64 in WebAssembly
// (xxhash-wasm), the same in the page's worker and the CLI. Not a cryptographic hash: it tells
// two different files apart (one in 2^64 by chance), which is what a cache key needs; measured
// at 5-6 GB/s, where BLAKE3 and SHA-256 ran at 0.8-1.5 GB/s.

import xxhash from 'xxhash-wasm';
import type { ContentHasher } from '../../core/tools/content-digest';

let loaded: ReturnType<typeof xxhash> | undefined;

export function xxhashContentHasher(): ContentHasher {
  return {
    algorithm: 'xxh64',
    async start() {
      const run = (await (loaded ??= xxhash())).create64();
      return {
        update: (bytes) => void run.update(bytes),
        digest: () => run.digest().toString(16).padStart(16, '0'),
      };
    },
  };
}
