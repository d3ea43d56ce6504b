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
  /**
   * How most of the checked values do meet, when they do: after TRIM() of both sides (padding, as
   * in " ABR"), or after lower(TRIM()) too. Absent: not even then.
   */
  meetsAfter?: KeyRepair;
}

/** The SQL that makes a declared key's two sides meet, as said in prompts and join paths. */
export type KeyRepair = 'trim' | 'lower-trim';

/** `TRIM(a) = TRIM(b)`: the condition on which a key's two sides meet, said in prompts and join paths. */
export function meetCondition(how: KeyRepair, from: string, to: string): string {
  const side = (x: string) => (how === 'trim' ? `TRIM(${x})` : `lower(TRIM(${x}))`);
  return `${side(from)} = ${side(to)}`;
}

/** Half the checked values or more: most of the key's rows join once compared that way. */
const MOST = 0.5;

/** Whether the child's values meet the parent's after TRIM, or after lower and TRIM (one query, both engines). */
async function repairOf(exec: SqlExecutor, edge: JoinEdge, rowLimit: number): Promise<KeyRepair | undefined> {
  const c = quoteIdent(edge.fromColumns[0]);
  const p = quoteIdent(edge.toColumns[0]);
  const parent = quoteIdent(edge.toTable);
  const r = await exec.query(
    `SELECT count(*),
       sum(CASE WHEN TRIM(v) IN (SELECT TRIM(${p}) FROM ${parent}) THEN 1 ELSE 0 END),
       sum(CASE WHEN lower(TRIM(v)) IN (SELECT lower(TRIM(${p})) FROM ${parent}) THEN 1 ELSE 0 END)
     FROM (SELECT DISTINCT ${c} AS v FROM ${quoteIdent(edge.fromTable)} WHERE ${c} IS NOT NULL LIMIT ${rowLimit}) AS s`,
    { maxRows: 1 },
  );
  const [n, trimmed, folded] = (r.rows[0] ?? []).map(Number);
  if (!(n > 0)) return undefined;
  if (trimmed >= MOST * n) return 'trim';
  if (folded >= MOST * n) return 'lower-trim';
  return undefined;
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
      // A column whose type TRIM does not take (a server's integer) meets no other way here.
      const meetsAfter = await repairOf(exec, edge, rowLimit).catch(() => undefined);
      out.set(keyLabel(edge), {
        checked: present,
        childExamples: await examplesOf(exec, edge.fromTable, edge.fromColumns[0]),
        parentExamples: await examplesOf(exec, edge.toTable, edge.toColumns[0]),
        ...(meetsAfter ? { meetsAfter } : {}),
      });
    } catch (e) {
      if (e instanceof DowserError && (e.code === 'cancelled' || e.code === 'timeout')) throw e;
    }
  }
  return out;
}
