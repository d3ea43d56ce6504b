// Compact storage of a column's distinct values while its table is read, and afterwards.
//
// Both hold the values of every column together; a value belongs to one column, and the same
// text in two columns is two values.
//
// ValueCounter  short values: each distinct value once, with the rows holding it. Values are
//               joined into chunk strings of CHUNK values (one byte a character for Latin-1
//               text, no object per value); a hash table of value ids finds a value again,
//               checked against the chunk with startsWith (no string made per look-up).
// TextCounter   long texts: not kept (SQLite has them); each distinct text is known by a 64-bit
//               hash, the first rowid holding it and its row count, and is read back by rowid
//               when a search returns it.

import { hashRange } from './value-vocab';

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;

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
  private count = 0;

  /** An empty table, or one over slots filled elsewhere (a worker's table, taken over). */
  constructor(
    private readonly hashOf: (id: number) => number,
    slots?: Int32Array,
  ) {
    this.slots = slots ?? new Int32Array(1024).fill(-1);
    if (slots) for (const id of slots) if (id >= 0) this.count++;
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

export class ValueCounter {
  private readonly chunks: string[] = [];
  private pending: string[] = [];
  private starts = new Uint32Array(1024);
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
    const hash = (hashRange(v, 0, v.length) ^ columnSalt(column)) >>> 0;
    // The probe is written out (no closure per call: this runs for every short cell read).
    const slots = this.table!.slots;
    const mask = slots.length - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const found = slots[s];
      if (found < 0) break;
      if (this.hashes[found] === hash && this.columns[found] === column && this.equals(found, v)) {
        this.counts[found]++;
        return found;
      }
    }
    const id = this.n++;
    if (id >= this.counts.length) {
      this.starts = grow(this.starts, id + 1);
      this.hashes = grow(this.hashes, id + 1);
      this.counts = grow(this.counts, id + 1);
      this.columns = grow(this.columns, id + 1);
    }
    this.columns[id] = column;
    const inChunk = id & (CHUNK - 1);
    this.starts[id] = inChunk === 0 ? 0 : this.starts[id - 1] + this.pending[inChunk - 1].length;
    this.hashes[id] = hash;
    this.counts[id] = 1;
    this.pending.push(v);
    if (this.pending.length === CHUNK) this.seal();
    this.table!.insert(id);
    return id;
  }

  private seal(): void {
    this.chunks.push(this.pending.join(''));
    this.pending = [];
  }

  private equals(id: number, v: string): boolean {
    const chunk = id >>> CHUNK_BITS;
    if (chunk === this.chunks.length) return this.pending[id & (CHUNK - 1)] === v;
    const start = this.starts[id];
    return this.length(id) === v.length && this.chunks[chunk].startsWith(v, start);
  }

  private length(id: number): number {
    const chunk = id >>> CHUNK_BITS;
    const last = (id & (CHUNK - 1)) === CHUNK - 1 || id === this.n - 1;
    const end = last ? this.chunks[chunk].length : this.starts[id + 1];
    return end - this.starts[id];
  }

  /**
   * The values of ids [from, to) as one string and their ends in it, without copying when they
   * lie in one sealed chunk (call after `freeze`).
   */
  range(from: number, to: number): { text: string; ends: Uint32Array } {
    const chunk = from >>> CHUNK_BITS;
    const ends = new Uint32Array(to - from);
    if (chunk === (to - 1) >>> CHUNK_BITS && chunk < this.chunks.length) {
      const base = this.starts[from];
      for (let id = from; id < to; id++) ends[id - from] = this.starts[id] - base + this.length(id);
      const end = ends.length > 0 ? base + ends[ends.length - 1] : base;
      return { text: this.chunks[chunk].slice(base, end), ends };
    }
    const values: string[] = [];
    let at = 0;
    for (let id = from; id < to; id++) {
      const v = this.get(id);
      values.push(v);
      ends[id - from] = at += v.length;
    }
    return { text: values.join(''), ends };
  }

  get(id: number): string {
    const chunk = id >>> CHUNK_BITS;
    if (chunk === this.chunks.length) return this.pending[id & (CHUNK - 1)];
    return this.chunks[chunk].slice(this.starts[id], this.starts[id] + this.length(id));
  }

  /** Done adding: seals the last chunk and drops the look-up table. */
  freeze(): void {
    if (this.pending.length > 0) this.seal();
    this.table = null;
    this.starts = this.starts.slice(0, this.n);
    this.counts = this.counts.slice(0, this.n);
    this.columns = this.columns.slice(0, this.n);
    this.hashes = new Uint32Array(0);
  }

  memoryBytes(): number {
    let chars = 0;
    for (const c of this.chunks) chars += c.length;
    for (const p of this.pending) chars += p.length + 16;
    return (
      chars +
      this.starts.byteLength +
      this.counts.byteLength +
      this.columns.byteLength +
      this.hashes.byteLength +
      (this.table?.byteLength ?? 0)
    );
  }
}

/** Two independent 32-bit hashes of a text in one pass (FNV-1a and a murmur-like one): 64 bits. */
let hashHi = 0;
function hash64(text: string): number {
  let lo = 0x811c9dc5;
  let hi = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    lo = Math.imul(lo ^ c, 16777619);
    hi = Math.imul(hi ^ c, 0x5bd1e995);
    hi ^= hi >>> 15;
  }
  hashHi = hi >>> 0;
  return lo >>> 0;
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
    const lo = (hash64(text) ^ columnSalt(column)) >>> 0;
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
