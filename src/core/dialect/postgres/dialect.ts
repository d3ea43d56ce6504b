// PostgreSQL as a dialect. Identifiers quote as in SQLite ("a""b"); literals too, with
// standard_conforming_strings on (the default since 9.1, and the engine sets it), so a backslash
// in a literal is just a backslash.

import { quoteIdent, quoteLiteral } from '../../sql/quote';
import type { Dialect } from '../types';
import { assertPostgresRead } from './gate';

export const postgresDialect: Dialect = {
  id: 'postgres',
  label: 'PostgreSQL',
  quoteIdent,
  quoteLiteral,
  assertRead: assertPostgresRead,
  promptFacts: (names) => [
    // Said only where it matters: a name the server would fold (capitals) or split (spaces).
    ...(names.some((n) => !/^[a-z_][a-z0-9_]*$/.test(n))
      ? ['unquoted names fold to lower case: double-quote names with capitals or spaces as listed']
      : []),
    'LIKE is case-sensitive (ILIKE is not); integer / integer truncates (cast to numeric)',
    'every selected column outside an aggregate must be in GROUP BY',
  ],
  valueNotes: [
    [
      /^numbers as text/,
      "numbers stored as text compare and sort as text ('9' > '10'): col::numeric to use them as numbers",
    ],
    [
      /^words among the numbers/,
      "text that is no number (a marker such as 'null' or '-') makes col::numeric fail: leave it out (col ~ '^\\s*-?[0-9.]+\\s*$') first",
    ],
    [
      /^ids as text beside number keys/,
      'a key of digits stored as text meets the number key it names only with a cast: col::bigint = key',
    ],
    [/^(month|day) names as text/, 'month and day names sort alphabetically: order them by calendar with CASE'],
    [/^dates not in ISO form/, "dates stored as text not in ISO form: to_date(col, 'DD/MM/YYYY') reads them"],
    // No note for "mixed storage": a server's column holds one type (distinct-values.ts).
    [
      /^numbers with signs or units/,
      "numbers written with %, a currency, a unit or thousands separators are text: regexp_replace(col, '[^0-9.-]', '', 'g')::numeric reads them",
    ],
    [
      /^codes whose meaning/,
      'codes whose meaning is not stored (0, 1, …): say in the answer which meaning you assumed',
    ],
  ],
  plan: {
    name: 'EXPLAIN',
    statement: (sql) => `EXPLAIN ${sql}`,
    // One line of the server's text plan per row, already indented.
    lines: (rows) => rows.map((row) => String(row[0])),
  },
  // The server's own time (no network, no rows sent): what the query costs where it runs.
  // REPEATABLE: the same pages each time, so what is read from a sample agrees between statements.
  sample: (percent) => ` TABLESAMPLE SYSTEM (${percent.toFixed(4)}) REPEATABLE (0)`,
  timing: {
    statement: (sql) => `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${sql}`,
    ms: (rows) => executionTime(rows[0]?.[0]),
  },
  dateNote: 'ISO dates stored as text compare as text; col::date reads them (EXTRACT(YEAR FROM col::date))',
  typedDateNote:
    "date and timestamp columns: compare with DATE 'YYYY-MM-DD', take parts with EXTRACT(YEAR FROM col) or date_trunc('month', col), subtract with intervals",
};

/** "Execution Time" of EXPLAIN (ANALYZE, FORMAT JSON)'s one cell, or null. */
function executionTime(cell: unknown): number | null {
  try {
    const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ 'Execution Time'?: unknown }>;
    const ms = plan?.[0]?.['Execution Time'];
    return typeof ms === 'number' && Number.isFinite(ms) ? ms : null;
  } catch {
    return null;
  }
}
