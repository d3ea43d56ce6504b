// Importing BIRD-style description files into a database's glossary: each `<table>.csv` is
// matched to the schema by its file name (case-insensitively), its rows to the table's columns.
// What cannot be matched is reported, never dropped silently.

import type { Schema } from '../types';
import { columnDescriptionText, parseBirdDescriptionCsv, type ColumnDescription } from './bird-csv';
import { withImportedTable, type Glossary } from './glossary';

export interface DescriptionFile {
  name: string;
  /** The decoded text (see `decodeText`). */
  text: string;
}

export interface ImportPlan {
  /** Matched tables (schema spelling) with their described columns (schema spelling). */
  tables: Array<{ table: string; file: string; columns: Array<[string, ColumnDescription]> }>;
  skipped: Array<{ file: string; reason: string }>;
  /** Columns a file describes that its table does not have. */
  unknownColumns: Array<{ file: string; table: string; columns: string[] }>;
  /** Columns that got a description with some text. */
  describedColumns: number;
}

export const tableNameOfFile = (file: string) => file.replace(/\.csv$/i, '');

/** What the matching reads of a schema: table and column names (all a worker needs to be sent). */
export interface SchemaNames {
  tables: ReadonlyArray<{ name: string; columns: ReadonlyArray<{ name: string }> }>;
}

export const namesOfSchema = (schema: Schema): SchemaNames => ({
  tables: schema.tables.map((t) => ({ name: t.name, columns: t.columns.map((c) => ({ name: c.name })) })),
});

export function planDescriptionImport(schema: SchemaNames, files: DescriptionFile[]): ImportPlan {
  const plan: ImportPlan = { tables: [], skipped: [], unknownColumns: [], describedColumns: 0 };
  const tables = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t]));
  for (const file of files) {
    if (!/\.csv$/i.test(file.name)) {
      plan.skipped.push({ file: file.name, reason: 'not a .csv file' });
      continue;
    }
    const name = tableNameOfFile(file.name);
    const table = tables.get(name.toLowerCase());
    if (!table) {
      plan.skipped.push({ file: file.name, reason: `no table named "${name}" in this database` });
      continue;
    }
    const parsed = parseBirdDescriptionCsv(file.text);
    if (parsed.size === 0) {
      plan.skipped.push({ file: file.name, reason: 'no rows under an original_column_name header' });
      continue;
    }
    const columnsByName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c.name]));
    const columns: Array<[string, ColumnDescription]> = [];
    const unknown: string[] = [];
    for (const [column, d] of parsed) {
      const own = columnsByName.get(column.toLowerCase());
      if (!own) {
        unknown.push(column);
        continue;
      }
      columns.push([own, d]);
      if (columnDescriptionText(own, d)) plan.describedColumns++;
    }
    if (unknown.length) plan.unknownColumns.push({ file: file.name, table: table.name, columns: unknown });
    plan.tables.push({ table: table.name, file: file.name, columns });
  }
  return plan;
}

export function applyImportPlan(g: Glossary, plan: ImportPlan): Glossary {
  return plan.tables.reduce((acc, t) => withImportedTable(acc, t.table, t.columns), g);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const MAX_LISTED = 8;
const list = (items: string[]) =>
  items.slice(0, MAX_LISTED).join(', ') + (items.length > MAX_LISTED ? `, and ${items.length - MAX_LISTED} more` : '');

/** The notice after an import: how much was imported, then what was left out and why. */
export function importMessage(plan: ImportPlan): { level: 'info' | 'warning'; message: string } {
  const parts = [
    `Descriptions imported for ${plural(plan.describedColumns, 'column')} of ${plural(plan.tables.length, 'table')}.`,
  ];
  if (plan.skipped.length) parts.push(`Skipped: ${list(plan.skipped.map((s) => `${s.file} (${s.reason})`))}.`);
  for (const u of plan.unknownColumns)
    parts.push(`${u.file} describes columns that ${u.table} does not have: ${list(u.columns)}.`);
  return { level: plan.skipped.length || plan.unknownColumns.length ? 'warning' : 'info', message: parts.join(' ') };
}
