// The dialect port (issue 36): one place per engine for what differs between SQL engines. Core code
// that writes or judges SQL for a database asks its dialect instead of assuming SQLite. Adding an
// engine is one folder here (its dialect) plus one line in registry.ts, and its engine adapter.

export type DialectId = 'sqlite' | 'postgres';

export interface Dialect {
  id: DialectId;
  /** The engine's name as people know it: "SQLite", "PostgreSQL". */
  label: string;
  /** A name as an identifier in generated SQL, whatever its case, spaces or quotes. */
  quoteIdent(name: string): string;
  /** Text as a string literal. */
  quoteLiteral(text: string): string;
  /**
   * Throws a DowserError (read_only, multiple_statements, empty_statement, sql_error) unless `sql`
   * is one statement that only reads; returns the text to run. The first of the engine's gates.
   */
  assertRead(sql: string): string;
  /**
   * What a prompt about a database of this engine states, one short sentence each (case rules,
   * quoting of the names it has, division), given the database's table and column names: none for
   * SQLite, whose prompts were written for it.
   */
  promptFacts(names: readonly string[]): string[];
  /**
   * What this engine does with each kind of stored value a column line's facts name
   * (prompt/grounded-schema.ts `storageFacts`), said once under the schema when the kind is present.
   */
  valueNotes: ReadonlyArray<readonly [RegExp, string]>;
  /** Said once when a column holds dates (stored as text, as SQLite always does). */
  dateNote: string;
  /** Said instead when a column of the engine's own date or time type holds them. */
  typedDateNote?: string;
  /** How the engine shows its plan for a statement (Optimize, issue 13). */
  plan: {
    /** `EXPLAIN QUERY PLAN` (SQLite), `EXPLAIN` (PostgreSQL). */
    name: string;
    statement(sql: string): string;
    /** The plan's result rows as indented lines. */
    lines(rows: readonly (readonly unknown[])[]): string[];
  };
  /**
   * How the engine times a statement itself (Optimize): a statement that runs it and reports its
   * execution time, without sending its rows. Absent: the caller's clock around the query.
   */
  /**
   * The clause after a table's name that reads about `percent`% of its pages, the same pages each
   * time (statistics of a large table, search_value's first look at a large column). Absent where
   * the engine has none: the whole table is read.
   */
  sample?(percent: number): string;
  timing?: {
    statement(sql: string): string;
    /** The execution time in ms from that statement's rows, or null when they do not say. */
    ms(rows: readonly (readonly unknown[])[]): number | null;
  };
}
