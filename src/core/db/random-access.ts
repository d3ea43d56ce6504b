// A file read in pieces where it lies (issue 26): the engine reads database pages from the
// user's file on demand instead of copying the whole file into memory first. Hosts give one:
// the browser's database worker over a File (FileReaderSync on Blob slices), Node over a path
// (positioned reads). Reads are synchronous because SQLite's VFS calls are.

/** A read-only file of known size, read at any offset. */
export interface RandomAccessFile {
  readonly size: number;
  /** Fills `into` from `offset`; returns how many bytes were read (fewer only at the end). */
  read(offset: number, into: Uint8Array): number;
  /**
   * As `read`, past any cache: one pass over the whole file (its checksum, for a kept index)
   * would otherwise push out every block SQLite reads again.
   */
  readThrough?(offset: number, into: Uint8Array): number;
  /** Lets go of the file (a Node descriptor); reads after it fail. */
  close(): void;
}

export interface BlockCacheOptions {
  /** Bytes read from the source at once; SQLite's pages are 512 B to 64 KiB. */
  blockBytes?: number;
  /** Bytes of blocks kept; the least recently used go first. */
  maxBytes?: number;
}

export const DEFAULT_BLOCK_BYTES = 256 * 1024;
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Reads `source` in whole blocks and keeps the recent ones: one FileReaderSync call costs far
 * more than copying a page, and SQLite reads a table's pages mostly in file order, so a block
 * read once serves the next pages too. Memory stays at `maxBytes` whatever the file's size.
 */
export function blockCached(
  source: Pick<RandomAccessFile, 'size' | 'read' | 'close'>,
  options: BlockCacheOptions = {},
): RandomAccessFile & { blockReads(): number } {
  const blockBytes = options.blockBytes ?? DEFAULT_BLOCK_BYTES;
  const maxBlocks = Math.max(1, Math.floor((options.maxBytes ?? DEFAULT_CACHE_BYTES) / blockBytes));
  // A Map iterates in insertion order: re-inserting a block on use makes the first key the oldest.
  const blocks = new Map<number, Uint8Array>();
  let reads = 0;
  const block = (index: number): Uint8Array => {
    const kept = blocks.get(index);
    if (kept) {
      blocks.delete(index);
      blocks.set(index, kept);
      return kept;
    }
    const start = index * blockBytes;
    const buffer = new Uint8Array(Math.min(blockBytes, source.size - start));
    const n = source.read(start, buffer);
    reads++;
    const got = n === buffer.length ? buffer : buffer.subarray(0, n);
    blocks.set(index, got);
    if (blocks.size > maxBlocks) blocks.delete(blocks.keys().next().value!);
    return got;
  };
  return {
    size: source.size,
    read(offset, into) {
      let done = 0;
      while (done < into.length && offset + done < source.size) {
        const at = offset + done;
        const index = Math.floor(at / blockBytes);
        const data = block(index);
        const from = at - index * blockBytes;
        if (from >= data.length) break;
        const n = Math.min(into.length - done, data.length - from);
        into.set(data.subarray(from, from + n), done);
        done += n;
      }
      return done;
    },
    readThrough: (offset, into) => source.read(offset, into),
    close() {
      blocks.clear();
      source.close();
    },
    blockReads: () => reads,
  };
}
