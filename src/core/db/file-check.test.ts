import { beforeAll, describe, expect, it } from 'vitest';
import { buildDb } from '../../test-support/build-db';
import { checkFileSize, headerIssues, MAX_FILE_BYTES, readHeader, type HeaderFacts } from './file-check';

const codeOf = (f: () => unknown): string => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return (e as { code: string }).code;
  }
};

/** Deterministic pseudo-random bytes (xorshift), so the entropy test never flakes. */
function randomBytes(n: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

let db: Uint8Array;

beforeAll(async () => {
  db = await buildDb('PRAGMA page_size = 1024; CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 2);');
});

describe('readHeader', () => {
  it('refuses empty bytes as empty_file', () => {
    expect(codeOf(() => readHeader(new Uint8Array()))).toBe('empty_file');
  });

  it('refuses a text file as not_sqlite and says it looks like text', () => {
    const csv = new TextEncoder().encode('id,name\n1,Ada\n2,Bo\n'.repeat(40));
    expect(() => readHeader(csv)).toThrow(
      expect.objectContaining({ code: 'not_sqlite', message: expect.stringContaining('text file') }),
    );
  });

  it('recognises UTF-8 text in non-Latin scripts as text too', () => {
    const csv = new TextEncoder().encode('名前,都市\n山田,東京\n'.repeat(40));
    expect(() => readHeader(csv)).toThrow(
      expect.objectContaining({ code: 'not_sqlite', message: expect.stringContaining('text file') }),
    );
  });

  it('refuses short binary as not_sqlite without calling it text', () => {
    const bin = new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0, 0, 1, 2, 0, 0]);
    expect(() => readHeader(bin)).toThrow(
      expect.objectContaining({ code: 'not_sqlite', message: expect.stringContaining('"SQLite format 3" header') }),
    );
  });

  it('calls random-looking bytes encrypted', () => {
    expect(codeOf(() => readHeader(randomBytes(8192)))).toBe('encrypted');
  });

  it('refuses a header cut short as corrupt', () => {
    expect(codeOf(() => readHeader(db.subarray(0, 60)))).toBe('corrupt');
  });

  it('reads page size and count from a real database', () => {
    const h = readHeader(db);
    expect(h.pageSize).toBe(1024);
    expect(h.pageCount).toBe(db.length / 1024);
    expect(h.walMode).toBe(false);
    expect(h.textEncoding).toBe(1); // UTF-8
  });

  it('reads a page size of 65536 from its stored value 1', () => {
    const copy = db.slice();
    copy[16] = 0;
    copy[17] = 1;
    expect(readHeader(copy).pageSize).toBe(65536);
  });

  it('ignores a page count the header marks as stale (old writers)', () => {
    const copy = db.slice();
    copy[95] ^= 0xff; // version-valid-for no longer equals the change counter
    expect(readHeader(copy).pageCount).toBe(0);
  });

  it('sees WAL mode from the read/write version bytes', () => {
    const copy = db.slice();
    copy[18] = 2;
    copy[19] = 2;
    expect(readHeader(copy).walMode).toBe(true);
  });

  it('works on a view into a larger buffer', () => {
    const padded = new Uint8Array(db.length + 8);
    padded.set(db, 8);
    expect(readHeader(padded.subarray(8)).pageSize).toBe(1024);
  });
});

describe('headerIssues', () => {
  const facts = (over: Partial<HeaderFacts> = {}): HeaderFacts => ({
    pageSize: 4096,
    pageCount: 10,
    walMode: false,
    textEncoding: 1,
    ...over,
  });

  it('finds nothing wrong with a complete rollback-journal file', () => {
    expect(headerIssues(facts(), 40960, false)).toEqual([]);
  });

  it('reports a file shorter than its header says as truncated (error)', () => {
    const [issue] = headerIssues(facts(), 20000, false);
    expect(issue).toMatchObject({ level: 'error', code: 'truncated' });
    expect(issue.message).toContain('10 pages (40960 bytes)');
  });

  it('says nothing about size when the page count is unknown', () => {
    expect(headerIssues(facts({ pageCount: 0 }), 100, false)).toEqual([]);
  });

  it('warns about WAL mode without the -wal file, not with it', () => {
    expect(headerIssues(facts({ walMode: true }), 40960, false)).toEqual([
      expect.objectContaining({ level: 'warning', code: 'wal_without_sidecar' }),
    ]);
    expect(headerIssues(facts({ walMode: true }), 40960, true)).toEqual([]);
  });

  it('reports a real database cut short', () => {
    const cut = db.subarray(0, db.length - 1024);
    expect(headerIssues(readHeader(cut), cut.length, false).map((i) => i.code)).toEqual(['truncated']);
  });
});

describe('checkFileSize', () => {
  it('accepts sizes up to the limit', () => {
    expect(codeOf(() => checkFileSize(1))).toBe('ok');
    expect(codeOf(() => checkFileSize(MAX_FILE_BYTES))).toBe('ok');
  });

  it('refuses 0 bytes as empty_file', () => {
    expect(codeOf(() => checkFileSize(0))).toBe('empty_file');
  });

  it('refuses more than 2 GiB as too_large and says how big', () => {
    expect(() => checkFileSize(3 * 1024 ** 3)).toThrow(
      expect.objectContaining({ code: 'too_large', message: expect.stringContaining('3.0 GiB') }),
    );
    expect(codeOf(() => checkFileSize(MAX_FILE_BYTES + 1))).toBe('too_large');
  });
});
