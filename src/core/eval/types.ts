// Shapes of the retrieval-tools evaluation (`dowser eval-tools`, issue 3): the interface the
// measured tools are seen through, the gold facts extracted from a benchmark's SQL, and the
// report. Plain data, pure TypeScript: the page could run the same evaluation later.

import type { DescriptionMap } from '../descriptions/bird-csv';
import type { SqlExecutor } from '../executor';
import type { ColumnRef } from '../retrieval/types';
import type { Schema } from '../types';

export type { ColumnDescription, DescriptionMap } from '../descriptions/bird-csv';

/** The database the tools under test are built for. */
export interface EvalDatabase {
  name: string;
  exec: SqlExecutor;
  schema: Schema;
  descriptions?: DescriptionMap;
}

/** A SearchValue result as the evaluation reads it. */
export type ValueRef = ColumnRef & { value: string };

/**
 * The retrieval tools as the evaluation sees them. The baseline (cli/eval/baseline-tools.ts)
 * and the product tools both implement it; the harness knows nothing else about them.
 */
export interface ToolsUnderTest {
  mode: 'lexical' | 'hybrid';
  /** Columns for a question, best first, at most k. */
  searchColumn(question: string, k: number): Promise<ColumnRef[]>;
  /** Cell values for a query, best first, at most k. */
  searchValue(query: string, k: number): Promise<ValueRef[]>;
  /**
   * True when FindShortestPath(a.table, b.table) returns a one-hop path whose ON condition
   * pairs a with b (in either direction).
   */
  joinOneHop(a: ColumnRef, b: ColumnRef): Promise<boolean>;
  dispose?(): void;
}

export type ToolsUnderTestFactory = (db: EvalDatabase) => Promise<ToolsUnderTest>;

export type LiteralOp = '=' | 'IN' | 'LIKE';

/** A string literal the gold SQL compares with a column. For LIKE, `value` has its `%` removed. */
export interface GoldLiteral extends ColumnRef {
  value: string;
  op: LiteralOp;
  /** The literal as written, before `%` was removed (LIKE only). */
  pattern?: string;
}

export interface GoldJoin {
  a: ColumnRef;
  b: ColumnRef;
}

/** What a gold query touches, with names in the schema's own spelling. */
export interface Gold {
  /** Every table read, FROM order first. */
  tables: string[];
  /** Every column referenced anywhere (join keys included; `*` and count(*) excluded). */
  columns: ColumnRef[];
  literals: GoldLiteral[];
  /** Equality conditions between columns of two different tables (ON and WHERE). */
  joins: GoldJoin[];
  /**
   * 'parser': node-sql-parser on the SQL as written; 'parser-rewritten': after rewriting what it
   * cannot read; 'explain': SQLite's EXPLAIN bytecode (columns and tables only, no literals/joins).
   */
  source: 'parser' | 'parser-rewritten' | 'explain';
  /** Names the parser could not resolve against the schema (diagnostics only). */
  unresolved: string[];
}

export interface GoldFailure {
  failure: string;
}

/** A mean and how many values it is over; `value` is null when there were none. */
export interface Mean {
  value: number | null;
  n: number;
}

export interface SearchColumnScores {
  recallAt5: number | null;
  recallAt10: number | null;
  allAt10: number | null;
  n: number;
}

export interface SearchValueScores {
  recallAt5: number | null;
  literalHitAt5: number | null;
  n: number;
}

export interface JoinPathScores {
  agreement: number | null;
  n: number;
}

export interface TableLinkingScores {
  res: number | null;
  n: number;
}

export interface MetricBlock {
  searchColumn: SearchColumnScores;
  searchValue: SearchValueScores;
  joinPath: JoinPathScores;
  tableLinking: TableLinkingScores;
}

/** Why gold literals were left out of searchValue. */
export interface ExcludedLiterals {
  /** The compared column is not a text column (affinity other than TEXT, and a declared type). */
  notTextColumn: number;
  /** The literal does not occur in its column (`SELECT 1 … WHERE col = ?` found nothing). */
  notInColumn: number;
  /** Up to 25 of them, for a look at why. */
  examples: Array<GoldLiteral & { db: string; reason: 'not a text column' | 'not in column' }>;
}

export interface DbBreakdown extends MetricBlock {
  questions: number;
  parseFailures: number;
  elapsedMs: number;
}

export interface SkippedDatabase {
  db: string;
  questions: number;
  /** 'database file missing', or why it could not be opened. */
  reason: string;
}

export interface GoldSourceCounts {
  parser: number;
  parserRewritten: number;
  explain: number;
}

export interface EvalToolsReport extends MetricBlock {
  mode: 'lexical' | 'hybrid';
  tools: string;
  dataset: 'spider' | 'bird';
  questionsFile: string;
  /** Questions evaluated (skipped ones not included). */
  questions: number;
  parseFailures: number;
  excludedLiterals: ExcludedLiterals;
  skipped: { questions: number; databases: SkippedDatabase[] };
  /**
   * EXPLAIN as a check on the parser: over questions parsed without `*`, how many read a column
   * (per SQLite's bytecode) that the parser did not list. Rowids read for automatic indexes show
   * up here too, so a few are expected.
   */
  goldCrossCheck: {
    compared: number;
    explainOnly: number;
    examples: Array<{ db: string; sql: string; columns: string[] }>;
  };
  goldSources: GoldSourceCounts;
  /** Up to 25 examples of gold SQL neither the parser nor EXPLAIN could read. */
  parseFailureExamples: Array<{ db: string; sql: string; reason: string }>;
  /** Calls to the tools that threw (counted as empty results). */
  toolErrors: number;
  /** searchColumn lists shorter than 10 columns, filled with the schema's others before scoring. */
  shortColumnLists: number;
  toolErrorExamples: string[];
  perDb: Record<string, DbBreakdown>;
  elapsedMs: number;
}
