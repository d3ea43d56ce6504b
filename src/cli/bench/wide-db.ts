// A real SQLite file with the synthetic wide schema of core/schema/wide-schema.ts (200 tables x
// 50 columns by default, one to three foreign keys per table, every fifth table with a composite
// primary key), so introspection is timed on PRAGMAs over an actual file, not on a Schema object.
// A few rows per table are enough: introspection counts rows but reads no data.

import initSqlJs from 'sql.js';
import { quoteIdent } from '../../core/sql/quote';
import { makeWideSchema } from '../../core/schema/wide-schema';
import type { TableInfo } from '../../core/types';

export interface WideDbOptions {
  tables: number;
  columns: number;
  seed: number;
  rowsPerTable: number;
}

export function createStatement(t: TableInfo): string {
  const defs = t.columns.map((c) => `${quoteIdent(c.name)} ${c.declaredType}`);
  defs.push(`PRIMARY KEY (${t.primaryKey.map(quoteIdent).join(', ')})`);
  for (const fk of t.foreignKeys) {
    defs.push(
      `FOREIGN KEY (${fk.from.map(quoteIdent).join(', ')}) REFERENCES ${quoteIdent(fk.refTable)} (${fk.to.map(quoteIdent).join(', ')})`,
    );
  }
  return `CREATE TABLE ${quoteIdent(t.name)} (${defs.join(', ')})`;
}

/**
 * Rows 1..n of a table: keys are the row number (composite keys (n, 1)), so every foreign key
 * points at an existing row of its parent; other columns hold the row number or short text.
 */
function insertStatement(t: TableInfo, rows: number): string {
  const tuples: string[] = [];
  for (let r = 1; r <= rows; r++) {
    const values = t.columns.map((c) => {
      if (c.name === 'part' || c.name.endsWith('_part')) return '1';
      if (c.declaredType === 'INTEGER') return String(r);
      return `'${t.name} ${c.name} ${r}'`;
    });
    tuples.push(`(${values.join(', ')})`);
  }
  return `INSERT INTO ${quoteIdent(t.name)} VALUES ${tuples.join(', ')}`;
}

export interface WideDb {
  bytes: Uint8Array;
  tables: number;
  columns: number;
  foreignKeys: number;
  buildMs: number;
}

export async function buildWideDb({ tables, columns, seed, rowsPerTable }: WideDbOptions): Promise<WideDb> {
  const t0 = performance.now();
  const schema = makeWideSchema(tables, columns, seed);
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  try {
    db.run('PRAGMA journal_mode = OFF; BEGIN');
    for (const t of schema.tables) {
      db.run(createStatement(t));
      if (rowsPerTable > 0) db.run(insertStatement(t, rowsPerTable));
    }
    db.run('COMMIT');
    const bytes = db.export();
    return {
      bytes,
      tables: schema.tables.length,
      columns: schema.tables.reduce((n, t) => n + t.columns.length, 0),
      foreignKeys: schema.foreignKeys.length,
      buildMs: Math.round(performance.now() - t0),
    };
  } finally {
    db.close();
  }
}
