// A snapshot read back from a store is untrusted data (issue 35, item 5): a file in a cache folder
// or a record in IndexedDB can be damaged, cut, written by another version or edited by hand. Its
// plain parts are checked here before anything uses them; its value index is checked by
// `ValueIndex.fromData` (a checksum over every array, then its structure). Whatever fails is a
// miss: the indexes are built again.

import { z } from 'zod';
import { SNAPSHOT_FORMAT, type ToolboxSnapshot } from './toolbox-snapshot';

const count = z.number().int().nonnegative();
const sqlValue = z.union([z.null(), z.number(), z.bigint(), z.string(), z.instanceof(Uint8Array)]);

const columnStats = z.object({
  table: z.string(),
  column: z.string(),
  rowsScanned: count,
  approximate: z.boolean(),
  nullCount: count,
  distinctCount: count,
  storageClasses: z.partialRecord(z.enum(['integer', 'real', 'text', 'blob', 'null']), count),
  min: sqlValue,
  max: sqlValue,
  samples: z.array(sqlValue),
  categories: z.array(z.object({ value: sqlValue, count })).nullable(),
  avgLength: z.number().nullable(),
  looksLikeDate: z.boolean(),
});

const joinEdge = z.object({
  fromTable: z.string(),
  fromColumns: z.array(z.string()),
  toTable: z.string(),
  toColumns: z.array(z.string()),
  inferred: z.boolean(),
});

const snapshotShape = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  key: z.string(),
  content: z.object({ algorithm: z.string(), digest: z.string(), sizeBytes: count }),
  stats: z.array(columnStats),
  inferredKeys: z.array(joinEdge),
  unmatchedKeys: z.array(
    z.tuple([
      z.string(),
      z.object({
        checked: count,
        childExamples: z.array(z.string()),
        parentExamples: z.array(z.string()),
        meetsAfter: z.enum(['trim', 'lower-trim']).optional(),
      }),
    ]),
  ),
  timings: z.record(z.string(), z.number()),
  tokenizedIn: z.enum(['worker', 'engine', 'engine-after-worker-failed']),
  // Its arrays and structure are ValueIndex.fromData's to check.
  values: z.object({}).loose(),
});

/** The snapshot, checked; throws (a miss) when it is not one kept under `key` in this format. */
export function checkedSnapshot(value: unknown, key: string): ToolboxSnapshot {
  const parsed = snapshotShape.safeParse(value);
  if (!parsed.success) throw new Error(`a kept index is damaged: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
  if (parsed.data.key !== key) throw new Error('a kept index was kept under another key');
  // The checked object itself (zod copies objects; the value index's typed arrays stay as they are).
  return value as ToolboxSnapshot;
}
