// A toolbox's expensive part as data, to keep between visits (issue 26): reading every row and
// tokenizing the values takes minutes on a large file, and the same file opened again gives the
// same indexes. The engine looks a snapshot up by the file (size, modification time, first bytes)
// and the build's options (toolboxKey), and uses it only when the file's checksum is the one kept
// with it (content-digest.ts, issue 35); where it is kept is the host's (ToolboxStore): IndexedDB
// in the page's worker, a cache folder in the CLI. The join graph, column index, descriptions and
// embeddings are made again from it (cheap), so nothing here depends on them.

import type { JoinEdge } from '../retrieval/types';
import type { ContentDigest } from './content-digest';
import { ValueIndex, type ValueIndexData } from '../retrieval/value-index';
import type { UnmatchedKey } from '../schema/key-health';
import type { ColumnStats } from '../types';

/** 'engine-after-worker-failed': the worker died or could not start, the engine's thread redid it. */
export type TokenizedIn = 'worker' | 'engine' | 'engine-after-worker-failed';

/** 'checking': a kept snapshot's file read through for its checksum, before it is used. */
export type ToolboxStage = 'checking' | 'statistics' | 'values' | 'value-index' | 'keys' | 'embeddings';

/**
 * Changed whenever what a snapshot holds, or how the index reads it, changes: older ones are
 * ignored. 2: foldCase lower-cases after NFKD ("Acme™" is the word "acmetm"). 3: the file's
 * checksum (`content`), checked before reuse. 4: a key whose values never meet says whether they
 * meet after TRIM (`meetsAfter`).
 */
export const SNAPSHOT_FORMAT = 4;

export interface ToolboxSnapshot {
  format: number;
  /** The key it was kept under (toolboxKey): a snapshot read under another key is not used. */
  key: string;
  /** The checksum of the whole file the index was made from: a file with another is not given it. */
  content: ContentDigest;
  stats: ColumnStats[];
  inferredKeys: JoinEdge[];
  unmatchedKeys: Array<[string, UnmatchedKey]>;
  timings: Partial<Record<ToolboxStage, number>>;
  tokenizedIn: TokenizedIn;
  values: ValueIndexData;
}

/** What a build made that a snapshot keeps. */
export interface SnapshotParts {
  stats: Map<string, ColumnStats>;
  values: ValueIndex;
  inferredKeys: JoinEdge[];
  unmatchedKeys: Map<string, UnmatchedKey>;
  timings: Partial<Record<ToolboxStage, number>>;
  tokenizedIn: TokenizedIn;
}

/**
 * Where snapshots are kept; every failure of storage is the store's to swallow (it is a cache),
 * and whatever it reads back is checked before use (snapshot-shape.ts): a damaged one is a miss.
 */
export interface ToolboxStore {
  get(key: string): Promise<ToolboxSnapshot | null>;
  /** True once the snapshot is kept whole; `onProgress` hears the fraction written. */
  put(snapshot: ToolboxSnapshot, onProgress?: (fraction: number) => void): Promise<boolean>;
  /** Forgets a snapshot found damaged, so the next opening does not read it again. */
  remove(key: string): Promise<void>;
}

/**
 * Databases with fewer text cells read than this are not kept: their indexes are made again in
 * about a second (about 1.7 s for 2 million cells in the page), faster than a snapshot is
 * stored and read, and they would fill the store for nothing. By size, not by the build's
 * time, so the same file is kept or not on any machine.
 */
export const KEEP_INDEXES_FROM_CELLS = 1_000_000;

/** Text cells the value read went through (what KEEP_INDEXES_FROM_CELLS is compared with). */
export function cellsRead(values: Pick<ValueIndex, 'columns'>): number {
  return values.columns.reduce((n, c) => n + c.rowsScanned, 0);
}

/** The identity of an opened file: what changes when its content may have. */
export interface FileIdentity {
  sizeBytes: number;
  /** Last modification, milliseconds since 1970 (File.lastModified, or the path's mtime). */
  modifiedMs: number;
  /** The file's first bytes (SQLite's header and first page: change counter, schema cookie). */
  head: Uint8Array;
}

/** Options of a build that change what it makes. */
export interface SnapshotOptions {
  /** Text cells the value index may hold (null: no limit). */
  valueCellBudget: number | null;
  statsRowBudget?: number;
}

/** The key a file's snapshot is kept under; safe as a file name. */
export function toolboxKey(file: FileIdentity, options: SnapshotOptions): string {
  const budget = options.valueCellBudget === null ? 'all' : String(options.valueCellBudget);
  return [
    `f${SNAPSHOT_FORMAT}`,
    file.sizeBytes,
    Math.round(file.modifiedMs),
    hex(fnv1a(file.head)),
    hex(fnv1a(file.head, 0x9747b28c)),
    budget,
    options.statsRowBudget ?? 'd',
  ].join('-');
}

/**
 * The key a server database's snapshot is kept under (issue 36): `identity` names the server,
 * database, role and schemas read (never a password); what confirms the snapshot is the
 * database's change state, kept as its `content`.
 */
export function serverToolboxKey(identity: string, options: SnapshotOptions): string {
  const bytes = new TextEncoder().encode(identity);
  const budget = options.valueCellBudget === null ? 'all' : String(options.valueCellBudget);
  return [`s${SNAPSHOT_FORMAT}`, hex(fnv1a(bytes)), hex(fnv1a(bytes, 0x9747b28c)), budget].join('-');
}

/** `content` is filled in by whoever keeps it (the engine, once the file's checksum is taken). */
export function snapshotOf(parts: SnapshotParts, key = ''): Omit<ToolboxSnapshot, 'content'> {
  return {
    format: SNAPSHOT_FORMAT,
    key,
    stats: [...parts.stats.values()],
    inferredKeys: parts.inferredKeys,
    unmatchedKeys: [...parts.unmatchedKeys],
    timings: parts.timings,
    tokenizedIn: parts.tokenizedIn,
    values: parts.values.toData(),
  };
}

/** The parts again; throws on a snapshot of another format or with damaged arrays. */
export function fromSnapshot(s: Omit<ToolboxSnapshot, 'content'>): SnapshotParts {
  if (s.format !== SNAPSHOT_FORMAT) throw new Error(`snapshot format ${String(s.format)}, not ${SNAPSHOT_FORMAT}`);
  return {
    stats: new Map(s.stats.map((st) => [`${st.table}.${st.column}`, st])),
    values: ValueIndex.fromData(s.values),
    inferredKeys: s.inferredKeys,
    unmatchedKeys: new Map(s.unmatchedKeys),
    timings: s.timings,
    tokenizedIn: s.tokenizedIn,
  };
}

/** FNV-1a, 32 bits: a cheap check of a few bytes (a key's head, a kept file's JSON). */
export function fnv1a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619);
  return h >>> 0;
}

const hex = (n: number) => n.toString(16).padStart(8, '0');

const ARRAY_TYPES = {
  Uint8Array,
  Uint16Array,
  Uint32Array,
  Int32Array,
  Float64Array,
} as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;
type KeptArray = InstanceType<(typeof ARRAY_TYPES)[ArrayTypeName]>;

/**
 * A snapshot as a JSON text and its typed arrays apart, for a store that writes bytes (the CLI's
 * cache file): the arrays are written as they are, never copied into one large buffer.
 */
export interface SnapshotChunks {
  json: string;
  arrays: KeptArray[];
}

export function snapshotToChunks(snapshot: ToolboxSnapshot): SnapshotChunks {
  const arrays: KeptArray[] = [];
  const json = JSON.stringify(snapshot, (_key, value: unknown) => {
    if (ArrayBuffer.isView(value)) {
      const type = value.constructor.name as ArrayTypeName;
      if (keptArrayBytes(type) === null) throw new Error(`snapshot: no way to keep a ${type}`);
      arrays.push(value as KeptArray);
      return { $array: arrays.length - 1, type, length: (value as KeptArray).length };
    }
    return value;
  });
  return { json, arrays };
}

/** The arrays a chunked snapshot needs, in order: what the reader fills before `snapshotFromChunks`. */
export function arraysOfChunks(json: string): Array<{ type: ArrayTypeName; length: number }> {
  const out: Array<{ type: ArrayTypeName; length: number }> = [];
  JSON.parse(json, (_key, value: unknown) => {
    if (isArrayRef(value)) out[value.$array] = { type: value.type, length: value.length };
    return value;
  });
  return out;
}

/**
 * Bytes per element of a kept array type; null for a name that is none (read back from a file,
 * it may be anything: `constructor` is `in` every object, so own keys only).
 */
export function keptArrayBytes(type: string): number | null {
  return Object.hasOwn(ARRAY_TYPES, type) ? ARRAY_TYPES[type as ArrayTypeName].BYTES_PER_ELEMENT : null;
}

/** An empty typed array of a kept type (for the reader to fill). */
export function newKeptArray(type: ArrayTypeName, length: number): KeptArray {
  if (keptArrayBytes(type) === null) throw new Error(`snapshot: unknown array type ${String(type)}`);
  return new ARRAY_TYPES[type](length);
}

export function snapshotFromChunks({ json, arrays }: SnapshotChunks): ToolboxSnapshot {
  return JSON.parse(json, (_key, value: unknown) => {
    if (!isArrayRef(value)) return value;
    const a = arrays[value.$array];
    if (!a || a.constructor.name !== value.type || a.length !== value.length)
      throw new Error('snapshot: an array is missing or of another type');
    return a;
  }) as ToolboxSnapshot;
}

function isArrayRef(v: unknown): v is { $array: number; type: ArrayTypeName; length: number } {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { $array?: unknown }).$array === 'number' &&
    typeof (v as { type?: unknown }).type === 'string' &&
    typeof (v as { length?: unknown }).length === 'number'
  );
}
