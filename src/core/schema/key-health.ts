// Declared keys whose values never meet: `flights.DestAirport` holds " ABR" while
// `airports.AirportCode` holds "ABR", so a join on the declared key returns nothing. The join path
// tool would hand that join over as correct; checked once when the tools are built, such a key
// gets a warning with examples of both sides wherever a path uses it.

import { DowserError } from '../errors';
import type { SqlExecutor } from '../executor';
import type { JoinEdge } from '../retrieval/types';
import { quoteIdent } from '../sql/quote';
import { quoteData } from '../tools/quote-data';
import { containmentSql } from './infer-keys';

export interface UnmatchedKey {
  /** Non-null child values checked, none of which is in the referenced column. */
  checked: number;
  /** A few values of each side, quoted as data. */
  childExamples: string[];
  parentExamples: string[];
}

export const keyLabel = (e: JoinEdge) =>
  `${e.fromTable}.${e.fromColumns.join(',')}>${e.toTable}.${e.toColumns.join(',')}`.toLowerCase();

async function examplesOf(exec: SqlExecutor, table: string, column: string): Promise<string[]> {
  const r = await exec.query(
    `SELECT DISTINCT ${quoteIdent(column)} FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} IS NOT NULL LIMIT 3`,
    { maxRows: 3 },
  );
  return r.rows.map((row) => quoteData(row[0], 30));
}

/**
 * The declared one-column keys none of whose first `rowLimit` child values exist in the referenced
 * column, by `keyLabel`. A check that fails to run is skipped; a database with no such key gives
 * an empty map.
 */
export async function findUnmatchedKeys(
  exec: SqlExecutor,
  edges: readonly JoinEdge[],
  { rowLimit = 200, maxChecks = 200, signal }: { rowLimit?: number; maxChecks?: number; signal?: AbortSignal } = {},
): Promise<Map<string, UnmatchedKey>> {
  const out = new Map<string, UnmatchedKey>();
  const declared = edges.filter((e) => !e.inferred && e.fromColumns.length === 1).slice(0, maxChecks);
  for (const edge of declared) {
    if (signal?.aborted) throw new DowserError('cancelled', 'Checking the keys was cancelled.');
    try {
      const r = await exec.query(containmentSql(edge, rowLimit), { maxRows: 1 });
      const [present, missing] = (r.rows[0] ?? []).map(Number);
      if (!(present > 0 && missing === present)) continue;
      out.set(keyLabel(edge), {
        checked: present,
        childExamples: await examplesOf(exec, edge.fromTable, edge.fromColumns[0]),
        parentExamples: await examplesOf(exec, edge.toTable, edge.toColumns[0]),
      });
    } catch (e) {
      if (e instanceof DowserError && (e.code === 'cancelled' || e.code === 'timeout')) throw e;
    }
  }
  return out;
}
