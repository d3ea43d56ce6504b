// Shapes the retrieval tools return. Plain data (structured-clone safe): the same objects
// travel from a worker to the page, into the agent's observations and into eval reports.

import type { ColumnStats } from '../types';

export interface ColumnRef {
  table: string;
  column: string;
}

/** One SearchColumn result. */
export interface ColumnHit extends ColumnRef {
  declaredType: string;
  /** Imported (BIRD-style CSV) description and/or the user's note; null when none. */
  description: string | null;
  stats: ColumnStats | null;
  score: number;
  /** Why it ranked: 'exact name', 'lexical', 'embedding', 'value link: "Paris"', 'join key' … */
  reasons: string[];
}

/** How the distinct values of one text column were gathered for the value index. */
export type ValuePolicy =
  /** every distinct value is indexed */
  | 'all'
  /** too many distinct values: the most frequent ones are indexed, the rest reached by LIKE */
  | 'sampled'
  /** unique-looking or very long values: not indexed, searched with LIKE at query time */
  | 'like-fallback';

export interface DistinctColumnValues extends ColumnRef {
  values: string[];
  /** Rows holding each value, parallel to `values`. */
  counts: number[];
  rowsScanned: number;
  policy: ValuePolicy;
  /** Plain-words reason for a policy other than 'all' (shown in the Tools panel and reports). */
  note?: string;
}

/** One SearchValue result. */
export interface ValueHit extends ColumnRef {
  value: string;
  /** Rows of the column holding exactly this value. */
  rows: number;
  score: number;
  match: 'exact' | 'prefix' | 'fuzzy' | 'like';
}

/** One join between two tables, possibly on several column pairs (composite keys). */
export interface JoinEdge {
  fromTable: string;
  fromColumns: string[];
  toTable: string;
  toColumns: string[];
  /** Not declared in the schema: inferred from names, types and a containment check. */
  inferred: boolean;
}

export interface JoinPath {
  /** Tables in path order, start first. */
  tables: string[];
  edges: JoinEdge[];
  /** Ready SQL: `FROM "a" JOIN "b" ON "a"."x" = "b"."y" …` with quoted identifiers. */
  joinClause: string;
}

/** Value search as repair hints and the linker consume it (the value index implements it). */
export interface ValueLookup {
  search(query: string, options: { table?: string; column?: string; k?: number }): ValueHit[];
}
