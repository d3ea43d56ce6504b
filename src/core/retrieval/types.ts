// Shapes the retrieval tools return. Plain data (structured-clone safe): the same objects
// travel from a worker to the page, into the agent's observations and into eval reports.

import type { ColumnStats, TextIndex } from '../types';

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

/** How much of a text column SearchValue's index holds. */
export type ValuePolicy =
  /** every text value is indexed */
  | 'all'
  /** some values are not: date/time values (compared in SQL, not searched by spelling) */
  | 'partial';

/** What the value index holds of one text column (read whole, every row). */
export interface ColumnValueSummary extends ColumnRef {
  /** Distinct short values kept with their row counts. */
  values: number;
  /** Distinct long texts, indexed by word and read back from the table by rowid. */
  texts: number;
  /** Text values that look like dates or times, not indexed. */
  dates: number;
  rowsScanned: number;
  /** Rows whose value is not indexed (new values after the index's memory budget was spent). */
  notIndexed?: number;
  /** Where those rows start (a rowid, and its column's name for SQL): search_value scans from there. */
  notIndexedFrom?: { rowid: string; from: number };
  /** None of its values are held: search_value asks the database, through this index of its own. */
  searchedBy?: TextIndex;
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
  /**
   * How the value matches the query, for the model and for ask_user's signals:
   * exact: as stored; case: the same up to case, accents, spacing or padding ("Aberdeen " for
   * "aberdeen"); compact: the same letters and digits without spaces or punctuation
   * ("NorthCarolina" for "North Carolina"); prefix: the value starts with the query; word: the
   * query's words are whole words of the value ("Canton Chinese" for "Chinese"); fuzzy: a close
   * spelling; text: the query's words were found inside a long text of the column.
   */
  match: 'exact' | 'case' | 'compact' | 'prefix' | 'word' | 'fuzzy' | 'text' | 'like' | 'contains';
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
