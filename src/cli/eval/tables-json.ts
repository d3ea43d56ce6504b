// Spider's and BIRD's `tables.json` (tables, columns, types, keys of each database) as SQLite
// CREATE TABLE statements: empty databases with a benchmark's schemas, for measuring what needs
// only the schema (column search, prompt sizes, Auto's budget) where the databases are absent.

import { quoteIdent } from '../../core/sql/quote';

export interface SpiderTables {
  db_id: string;
  table_names_original: string[];
  column_names_original: Array<[number, string]>;
  column_types: string[];
  primary_keys: Array<number | number[]>;
  foreign_keys: Array<[number, number]>;
}

const TYPES: Record<string, string> = {
  text: 'TEXT',
  integer: 'INTEGER',
  real: 'REAL',
  number: 'REAL',
  date: 'DATE',
  datetime: 'DATETIME',
  time: 'TIME',
  boolean: 'BOOLEAN',
  blob: 'BLOB',
};

export function createStatements(s: SpiderTables): string[] {
  const cols = s.column_names_original.map(([t, name], i) => ({ t, name, type: TYPES[s.column_types[i]] ?? '' }));
  return s.table_names_original.map((table, ti) => {
    const defs = cols.filter((c) => c.t === ti).map((c) => `${quoteIdent(c.name)} ${c.type}`.trim());
    const pk = s.primary_keys.flatMap((k) => (Array.isArray(k) ? [k] : [[k]])).find((k) => cols[k[0]].t === ti);
    if (pk) defs.push(`PRIMARY KEY (${pk.map((i) => quoteIdent(cols[i].name)).join(', ')})`);
    for (const [from, to] of s.foreign_keys) {
      if (cols[from].t !== ti) continue;
      defs.push(
        `FOREIGN KEY (${quoteIdent(cols[from].name)}) REFERENCES ${quoteIdent(s.table_names_original[cols[to].t])} (${quoteIdent(cols[to].name)})`,
      );
    }
    return `CREATE TABLE ${quoteIdent(table)} (${defs.join(', ')})`;
  });
}
