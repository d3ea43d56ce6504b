// What Auto's first request shows while the indexes are still being built (issue 26): the
// statistics of each table's first rows, within a time budget, and the column descriptions.
// Keys are inferred only by the full build. Pure: any engine passes its executor.

import type { SqlExecutor } from '../executor';
import type { Grounding } from '../prompt/grounded-schema';
import type { ColumnDescriptions } from '../retrieval/column-index';
import { columnStats } from '../schema/stats';
import type { ColumnStats, Schema } from '../types';

/** Rows of each table looked at, and the time the statistics may take. */
export const SAMPLED_GROUNDING_ROWS = 10_000;
const SAMPLED_GROUNDING_MS = 1_500;

export async function sampledGrounding(
  exec: SqlExecutor,
  schema: Schema,
  options: { rowCounts?: ReadonlyMap<string, number | null>; descriptions?: ColumnDescriptions; now?: () => number },
): Promise<Grounding> {
  const now = options.now ?? (() => Date.now());
  const stats: ColumnStats[] = [];
  const deadline = now() + SAMPLED_GROUNDING_MS;
  for (const t of schema.tables) {
    if (t.kind !== 'table' || t.skipped || t.error) continue;
    for (const c of t.columns) {
      if (c.hidden || now() > deadline) continue;
      stats.push(
        await columnStats(exec, {
          table: t.name,
          column: c.name,
          rowCount: options.rowCounts?.get(t.name),
          rowBudget: SAMPLED_GROUNDING_ROWS,
        }),
      );
    }
  }
  const descriptions = [...(options.descriptions ?? new Map())].flatMap(([table, columns]) =>
    [...columns].map(([column, text]) => ({ table, column, text })),
  );
  return { stats, inferredKeys: [], descriptions, sampledRows: SAMPLED_GROUNDING_ROWS };
}
