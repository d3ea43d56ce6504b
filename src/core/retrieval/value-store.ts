// Compact storage of a column's distinct values while its table is read, and afterwards.
//
// Both hold the values of every column together; a value belongs to one column, and the same
// text in two columns is two values.
//
// ValueCounter  short values: each distinct value once, with the rows holding it. Values are
//               kept as UTF-8 bytes one after another in one growing array (no object per
//               value); a hash table of value ids finds a value again, compared byte by byte.
// TextCounter   long texts: not kept (SQLite has them); each distinct text is known by a 64-bit
//               hash, the first rowid holding it and its row count, and is read back by rowid
//               when a search returns it.
//
// Both take cells as UTF-8 bytes where SQLite keeps them (a scan in place, decision 015), so a
// value seen before costs no string; cells that arrive as strings are encoded first.

/** A copy of `a` at least `min` long (doubling), for arrays that grow one id at a time. */
export function grow<T extends Uint32Array | Float64Array | Uint16Array>(a: T, min: number): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}

/** The column number folded into a value's hash, so equal texts of two columns stay apart. */
const columnSalt = (column: number) => Math.imul(column + 1, 0x9e3779b1);

/** Open addressing over ids, keyed by a 32-bit hash per id; `same(id)` confirms a match. */
export class IdTable {
  /** Open-addressing slots (ids, -1 empty): hot loops probe them directly, without a callback. */
  slots: Int32Array;
  private count: number;

  /** An empty table, or one over slots filled elsewhere with `count` ids (a worker's table, taken over). */
  constructor(
    private readonly hashOf: (id: number) => number,
    taken?: { slots: Int32Array; count: number },
  ) {
    this.slots = taken?.slots ?? new Int32Array(1024).fill(-1);
    this.count = taken?.count ?? 0;
  }

  find(hash: number, same: (id: number) => boolean): number {
    const mask = this.slots.length - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s];
      if (id < 0) return -1;
      if (this.hashOf(id) === hash && same(id)) return id;
    }
  }

  /** Calls `visit` with every id whose hash is `hash` (equal keys may repeat). */
  forEach(hash: number, visit: (id: number) => void): void {
    const mask = this.slots.length - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s];
      if (id < 0) return;
      if (this.hashOf(id) === hash) visit(id);
    }
  }

  insert(id: number): void {
    if ((this.count + 1) * 2 > this.slots.length) {
      const old = this.slots;
      this.slots = new Int32Array(old.length * 2).fill(-1);
      for (const o of old) if (o >= 0) this.place(o);
    }
    this.place(id);
    this.count++;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let s = this.hashOf(id) & mask;
    while (this.slots[s] >= 0) s = (s + 1) & mask;
    this.slots[s] = id;
  }

  get byteLength(): number {
    return this.slots.byteLength;
  }
}

/**
 * UTF-8 of a string, for cells that arrive as text (paged reads, tests), into one scratch buffer:
 * returns the length; read `scratchBytes()` after the call (the buffer may have been replaced).
 */
const encoder = new TextEncoder();
let scratch = new Uint8Array(1024);
export function encodeScratch(v: string): number {
  // A UTF-16 unit becomes at most 3 bytes.
  if (v.length * 3 > scratch.length) scratch = new Uint8Array(v.length * 3);
  return encoder.encodeInto(v, scratch).written;
}
export const scratchBytes = () => scratch;

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The text of UTF-8 bytes: short ASCII without a decoder call (most values), the rest decoded. */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 64) {
    let ascii = true;
    for (let i = start; i < end; i++)
      if (bytes[i] >= 0x80) {
        ascii = false;
        break;
      }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  return utf8.decode(bytes.subarray(start, end));
}

/**
 * The length in UTF-16 units (JavaScript's `length`) of valid UTF-8 bytes: one a character, two
 * for a character of four bytes (a surrogate pair).
 */
export function utf16Length(bytes: Uint8Array, start: number, length: number): number {
  let n = 0;
  for (let i = start, end = start + length; i < end; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

/** FNV-1a over bytes. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 16777619);
  return h >>> 0;
}

/**
 * Values sent to a tokenizer together: their UTF-8 bytes one after another, `ends[i]` the end of
 * value i in them (it starts at the end of the one before, or 0) and `units[i]` the end of value
 * i in the decoded text (UTF-16 units, as counted by `utf16Length`), so that one decode of the
 * whole batch needs no second pass to find the values in it.
 */
export interface ByteBatch {
  bytes: Uint8Array;
  ends: Uint32Array;
  units: Uint32Array;
}

/** A frozen ValueCounter's arrays (ValueCounter.toData), to keep the index between visits (issue 26). */
export interface ValueCounterData {
  bytes: Uint8Array;
  starts: Uint32Array;
  unitEnds: Uint32Array;
  counts: Uint32Array;
  columns: Uint16Array;
}

export class ValueCounter {
  /** The UTF-8 bytes of every value, in id order: value `id` is `bytes[starts[id], starts[id + 1])`. */
  private bytes = new Uint8Array(1 << 16);
  private starts = new Uint32Array(1025);
  /** The same in UTF-16 units of the decoded values: value `id` has `unitEnds[id + 1] - unitEnds[id]`. */
  private unitEnds = new Uint32Array(1025);
  private hashes = new Uint32Array(1024);
  counts = new Uint32Array(1024);
  /** Column number of each value. */
  columns = new Uint16Array(1024);
  private n = 0;
  private table: IdTable | null = new IdTable((id) => this.hashes[id]);

  get size(): number {
    return this.n;
  }

  /** Counts one row of column `column` holding `v`; returns the value's id. */
  add(v: string, column: number): number {
    const length = encodeScratch(v);
    return this.addBytes(scratch, 0, length, v.length, column);
  }

  /**
   * Counts one row of column `column` holding the UTF-8 `src[start, start + length)`, `units`
   * long once decoded; returns the value's id.
   */
  addBytes(src: Uint8Array, start: number, length: number, units: number, column: number): number {
    const end = start + length;
    const hash = (hashBytes(src, start, end) ^ columnSalt(column)) >>> 0;
    const found = this.find(src, start, length, hash, column);
    if (found >= 0) {
      this.counts[found]++;
      return found;
    }
    const id = this.n++;
    if (id >= this.counts.length) {
      this.starts = grow(this.starts, id + 2);
      this.unitEnds = grow(this.unitEnds, id + 2);
      this.hashes = grow(this.hashes, id + 1);
      this.counts = grow(this.counts, id + 1);
      this.columns = grow(this.columns, id + 1);
    }
    const at = this.starts[id];
    if (at + length > this.bytes.length) {
      const more = new Uint8Array(Math.max(at + length, this.bytes.length * 2));
      more.set(this.bytes.subarray(0, at));
      this.bytes = more;
    }
    if (length > 32) this.bytes.set(src.subarray(start, end), at);
    else for (let i = 0; i < length; i++) this.bytes[at + i] = src[start + i];
    this.starts[id + 1] = at + length;
    this.unitEnds[id + 1] = this.unitEnds[id] + units;
    this.columns[id] = column;
    this.hashes[id] = hash;
    this.counts[id] = 1;
    this.table!.insert(id);
    return id;
  }

  /**
   * Counts one more row of a value already held, without adding new ones (the index's memory
   * budget is spent, issue 26); returns its id, or -1 when the value is not held.
   */
  countBytes(src: Uint8Array, start: number, length: number, column: number): number {
    const hash = (hashBytes(src, start, start + length) ^ columnSalt(column)) >>> 0;
    const found = this.find(src, start, length, hash, column);
    if (found >= 0) this.counts[found]++;
    return found;
  }

  /** The id of the value `src[start, start + length)` of `column`, or -1. */
  private find(src: Uint8Array, start: number, length: number, hash: number, column: number): number {
    const { bytes, starts } = this;
    const slots = this.table!.slots;
    const mask = slots.length - 1;
    probe: for (let s = hash & mask; ; s = (s + 1) & mask) {
      const found = slots[s];
      if (found < 0) return -1;
      if (this.hashes[found] !== hash || this.columns[found] !== column) continue;
      const at = starts[found];
      if (starts[found + 1] - at !== length) continue;
      for (let i = 0; i < length; i++) if (bytes[at + i] !== src[start + i]) continue probe;
      return found;
    }
  }

  /** The values of ids [from, to), their bytes copied into one buffer of their own (to transfer). */
  range(from: number, to: number): ByteBatch {
    const base = this.starts[from];
    const unitBase = this.unitEnds[from];
    const ends = new Uint32Array(to - from);
    const units = new Uint32Array(to - from);
    for (let id = from; id < to; id++) {
      ends[id - from] = this.starts[id + 1] - base;
      units[id - from] = this.unitEnds[id + 1] - unitBase;
    }
    return { bytes: this.bytes.slice(base, this.starts[to]), ends, units };
  }

  get(id: number): string {
    return decodeUtf8(this.bytes, this.starts[id], this.starts[id + 1]);
  }

  /** Orders two values as SQLite's BINARY collation does (their UTF-8 bytes), decoding neither. */
  compare(a: number, b: number): number {
    const { bytes, starts } = this;
    const la = starts[a + 1] - starts[a];
    const lb = starts[b + 1] - starts[b];
    for (let i = 0, n = Math.min(la, lb); i < n; i++) {
      const d = bytes[starts[a] + i] - bytes[starts[b] + i];
      if (d !== 0) return d;
    }
    return la - lb;
  }

  /** The arrays of a frozen counter (shared, not copied). */
  toData(): ValueCounterData {
    if (this.table) throw new Error('ValueCounter.toData: freeze it first');
    const { bytes, starts, unitEnds, counts, columns } = this;
    return { bytes, starts, unitEnds, counts, columns };
  }

  /** A frozen counter over `toData()`'s arrays (taken over, not copied). */
  static fromData(d: ValueCounterData): ValueCounter {
    const n = d.counts.length;
    if (
      d.starts.length !== n + 1 ||
      d.unitEnds.length !== n + 1 ||
      d.columns.length !== n ||
      d.bytes.length !== d.starts[n]
    )
      throw new Error('ValueCounter.fromData: arrays of unequal lengths');
    const c = new ValueCounter();
    Object.assign(c, { ...d, n, table: null, hashes: new Uint32Array(0) });
    return c;
  }

  /** Done adding: drops the look-up table and the arrays' spare room. */
  freeze(): void {
    this.table = null;
    this.bytes = this.bytes.slice(0, this.starts[this.n]);
    this.starts = this.starts.slice(0, this.n + 1);
    this.unitEnds = this.unitEnds.slice(0, this.n + 1);
    this.counts = this.counts.slice(0, this.n);
    this.columns = this.columns.slice(0, this.n);
    this.hashes = new Uint32Array(0);
  }

  memoryBytes(): number {
    return (
      this.bytes.byteLength +
      this.starts.byteLength +
      this.unitEnds.byteLength +
      this.counts.byteLength +
      this.columns.byteLength +
      this.hashes.byteLength +
      (this.table?.byteLength ?? 0)
    );
  }
}

/** Two independent 32-bit hashes of UTF-8 bytes in one pass (FNV-1a and a murmur-like one): 64 bits. */
let hashHi = 0;
function hash64(bytes: Uint8Array, start: number, end: number): number {
  let lo = 0x811c9dc5;
  let hi = 0x9747b28c;
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    lo = Math.imul(lo ^ c, 16777619);
    hi = Math.imul(hi ^ c, 0x5bd1e995);
    hi ^= hi >>> 15;
  }
  hashHi = hi >>> 0;
  return lo >>> 0;
}

/** A frozen TextCounter's arrays (TextCounter.toData). */
export interface TextCounterData {
  counts: Uint32Array;
  rowids: Float64Array;
  columns: Uint16Array;
}

export class TextCounter {
  private lo = new Uint32Array(1024);
  private hi = new Uint32Array(1024);
  counts = new Uint32Array(1024);
  rowids = new Float64Array(1024);
  columns = new Uint16Array(1024);
  private n = 0;
  private table: IdTable | null = new IdTable((id) => this.lo[id]);

  get size(): number {
    return this.n;
  }

  /** Counts one row of column `column` holding `text`; returns the text's id, or -1 when it was seen before. */
  add(text: string, rowid: number, column: number): number {
    const length = encodeScratch(text);
    return this.addBytes(scratch, 0, length, rowid, column);
  }

  /** `add` for the UTF-8 text `src[start, start + length)`. */
  addBytes(src: Uint8Array, start: number, length: number, rowid: number, column: number): number {
    const lo = (hash64(src, start, start + length) ^ columnSalt(column)) >>> 0;
    const hi = hashHi;
    const slots = this.table!.slots;
    const mask = slots.length - 1;
    for (let s = lo & mask; ; s = (s + 1) & mask) {
      const found = slots[s];
      if (found < 0) break;
      if (this.lo[found] === lo && this.hi[found] === hi && this.columns[found] === column) {
        this.counts[found]++;
        return -1;
      }
    }
    const id = this.n++;
    if (id >= this.counts.length) {
      this.lo = grow(this.lo, id + 1);
      this.hi = grow(this.hi, id + 1);
      this.counts = grow(this.counts, id + 1);
      this.rowids = grow(this.rowids, id + 1);
      this.columns = grow(this.columns, id + 1);
    }
    this.columns[id] = column;
    this.lo[id] = lo;
    this.hi[id] = hi;
    this.counts[id] = 1;
    this.rowids[id] = rowid;
    this.table!.insert(id);
    return id;
  }

  /** The arrays of a frozen counter (shared, not copied). */
  toData(): TextCounterData {
    if (this.table) throw new Error('TextCounter.toData: freeze it first');
    const { counts, rowids, columns } = this;
    return { counts, rowids, columns };
  }

  /** A frozen counter over `toData()`'s arrays (taken over, not copied). */
  static fromData(d: TextCounterData): TextCounter {
    const n = d.counts.length;
    if (d.rowids.length !== n || d.columns.length !== n)
      throw new Error('TextCounter.fromData: arrays of unequal lengths');
    const c = new TextCounter();
    Object.assign(c, { ...d, n, table: null, lo: new Uint32Array(0), hi: new Uint32Array(0) });
    return c;
  }

  freeze(): void {
    this.table = null;
    this.lo = new Uint32Array(0);
    this.hi = new Uint32Array(0);
    this.counts = this.counts.slice(0, this.n);
    this.rowids = this.rowids.slice(0, this.n);
    this.columns = this.columns.slice(0, this.n);
  }

  memoryBytes(): number {
    return (
      this.lo.byteLength +
      this.hi.byteLength +
      this.counts.byteLength +
      this.rowids.byteLength +
      this.columns.byteLength +
      (this.table?.byteLength ?? 0)
    );
  }
}
