// SQLite as a dialect: the functions the code used before the port existed, unchanged.

import { quoteIdent, quoteLiteral } from '../../sql/quote';
import { assertSingleReadStatement } from '../../sql/statements';
import type { Dialect } from '../types';

export const sqliteDialect: Dialect = {
  id: 'sqlite',
  label: 'SQLite',
  quoteIdent,
  quoteLiteral,
  assertRead: assertSingleReadStatement,
  promptFacts: () => [],
  valueNotes: [
    [
      /^numbers as text/,
      "numbers as text compare and sort as text ('9' > '10'): CAST(col AS REAL) to use them as numbers",
    ],
    [
      /^words among the numbers/,
      "text that is no number (a marker such as 'null' or '-') reads as 0 after CAST: leave it out (col GLOB '*[0-9]*') before a sum, an average, a minimum or a comparison",
    ],
    [
      /^ids as text beside number keys/,
      'a key of digits stored as text joins the number key it names as it is (SQLite converts the text for =): no CAST in the join',
    ],
    [/^(month|day) names as text/, 'month and day names sort alphabetically: order them by calendar with CASE'],
    [
      /^dates not in ISO form/,
      'dates not in ISO form: date() and strftime() return NULL on them; take their parts with substr()',
    ],
    // Only where text is among them: integers beside reals compare as numbers.
    [/^mixed storage: .*\btext\b/, 'a column of mixed storage holds numbers and text: = compares them by type'],
    [
      /^numbers with signs or units/,
      "numbers written with %, a currency, a unit or thousands separators are text: CAST(REPLACE(REPLACE(REPLACE(col, ',', ''), '%', ''), '$', '') AS REAL) reads them",
    ],
    [
      /^codes whose meaning/,
      'codes whose meaning is not stored (0, 1, …): say in the answer which meaning you assumed',
    ],
  ],
  plan: {
    name: 'EXPLAIN QUERY PLAN',
    statement: (sql) => `EXPLAIN QUERY PLAN ${sql}`,
    // SQLite's own tree: id, parent, detail.
    lines(rows) {
      const depth = new Map<number, number>();
      return rows.map((row) => {
        const [id, parent, , detail] = row;
        const d = (depth.get(Number(parent)) ?? -1) + 1;
        depth.set(Number(id), d);
        return `${'  '.repeat(d)}${String(detail)}`;
      });
    },
  },
  dateNote: "dates stored as ISO text ('YYYY-MM-DD…') compare as text; strftime('%Y', col) and date(col) read them",
};
