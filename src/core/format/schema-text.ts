// The schema as plain text for the CLI's `schema` command: what opening found, then each table
// and view with its columns, keys, indexes and (optionally) one line of statistics per column.
// Every name and value from the database passes through visible() before it reaches a terminal.

import { integrityOf } from '../db/file-check';
import { blobToHex } from '../export/values';
import type { ColumnInfo, ColumnStats, ForeignKey, IndexInfo, OpenReport, Schema, SqlValue, TableInfo } from '../types';
import { cutToWidth, displayWidth, padEndWidth, visible } from './visible';

/** Statistics of one column, or why they could not be computed. */
export type ColumnStatsEntry = ColumnStats | { table: string; column: string; error: string };

const VALUE_WIDTH = 30;
const CATEGORIES_SHOWN = 5;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** A value in a summary line: text quoted and cut, blobs as short hex. */
export function formatValue(v: SqlValue): string {
  if (v === null) return 'NULL';
  if (v instanceof Uint8Array) return cutToWidth(blobToHex(v), VALUE_WIDTH);
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return `'${cutToWidth(visible(v), VALUE_WIDTH)}'`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One line: "0 nulls, 3 distinct, values 'a' ×2, 'b' ×1" — min/max, samples or categories.
 * `formatValue` is swappable: prompts quote database text as JSON strings instead.
 */
export function statsSummary(st: ColumnStats, fmt: (v: SqlValue) => string = formatValue): string {
  if (st.rowsScanned === 0) return 'no rows';
  const parts = [plural(st.nullCount, 'null'), `${st.distinctCount} distinct`];
  // Dates read best as a range, few distinct values as a list, other numbers as a range.
  if (st.looksLikeDate) {
    parts.push(`dates from ${fmt(st.min)} to ${fmt(st.max)}`);
  } else if (st.categories) {
    const shown = st.categories.slice(0, CATEGORIES_SHOWN).map((c) => `${fmt(c.value)} ×${c.count}`);
    const more = st.categories.length - shown.length;
    parts.push(`values ${shown.join(', ')}${more > 0 ? `, … ${more} more` : ''}`);
  } else if (typeof st.min === 'number') {
    parts.push(`min ${fmt(st.min)}`, `max ${fmt(st.max)}`);
  } else if (st.samples.length) {
    parts.push(`e.g. ${st.samples.map(fmt).join(', ')}`);
  }
  const classes = Object.entries(st.storageClasses).filter(([k]) => k !== 'null');
  if (classes.length > 1) parts.push(`stored as ${classes.map(([k, n]) => `${k} ${n}×`).join(', ')}`);
  if (st.approximate) parts.push(`counted on the first ${st.rowsScanned} rows`);
  return parts.join(', ');
}

function typeText(c: ColumnInfo): string {
  return c.declaredType ? visible(c.declaredType) : '(no type)';
}

function columnLine(c: ColumnInfo, table: TableInfo, width: number, typeWidth: number): string {
  const marks: string[] = [];
  if (c.pkIndex > 0) marks.push(table.primaryKey.length > 1 ? `PK${c.pkIndex}` : 'PK');
  if (table.foreignKeys.some((fk) => fk.from.includes(c.name))) marks.push('FK');
  if (c.notNull) marks.push('NOT NULL');
  if (c.defaultValue !== null) marks.push(`DEFAULT ${visible(c.defaultValue)}`);
  if (c.comment) marks.push(`-- ${visible(c.comment)}`);
  const line = `    ${padEndWidth(visible(c.name), width)}  ${padEndWidth(typeText(c), typeWidth)}  ${marks.join(' ')}`;
  return line.trimEnd();
}

export function foreignKeyText(fk: ForeignKey): string {
  const side = (table: string, cols: string[]) =>
    cols.length === 1 ? `${visible(table)}.${visible(cols[0])}` : `${visible(table)}.(${cols.map(visible).join(', ')})`;
  return `${side(fk.table, fk.from)} -> ${side(fk.refTable, fk.to)}`;
}

function indexText(ix: IndexInfo): string {
  const kind = ix.origin === 'pk' ? 'primary key' : ix.origin === 'u' ? 'unique constraint' : ix.unique ? 'unique' : '';
  const notes = [kind, ix.partial ? 'partial' : ''].filter(Boolean);
  return `${visible(ix.name)} (${ix.columns.map(visible).join(', ')})${notes.length ? ` ${notes.join(', ')}` : ''}`;
}

const MESSAGE_LINES = 6;

/** A message's own line breaks kept (indented, at most a few lines), everything else escaped. */
function multiline(message: string): string {
  const lines = message.split(/\r?\n/);
  const shown = lines.slice(0, MESSAGE_LINES).map(visible);
  if (lines.length > MESSAGE_LINES) shown.push(`… ${lines.length - MESSAGE_LINES} more lines`);
  return shown.join('\n    ');
}

export function reportText(report: OpenReport): string {
  const integrity = {
    pending: 'integrity not checked',
    skipped: 'integrity not checked (large file)',
    ok: 'integrity ok',
    failed: 'integrity check FAILED',
  }[integrityOf(report.quickCheck)];
  const server = report.server;
  const head = server
    ? `${visible(report.name)}: PostgreSQL ${visible(server.version)}, ${formatBytes(report.sizeBytes)}, schema${server.schemas.length === 1 ? '' : 's'} ${server.schemas.map(visible).join(', ')}${server.trigrams ? ', pg_trgm' : ''}`
    : null;
  const lines = [
    head ??
      `${visible(report.name)}: ${formatBytes(report.sizeBytes)}, SQLite ${report.sqliteVersion}, ${report.pageCount || '?'} pages of ${report.pageSize} bytes, ${integrity}${report.readFrom === 'file' ? ', read from the file as needed' : ''}`,
    ...report.issues.map((i) => `${i.level} [${i.code}]: ${multiline(i.message)}`),
  ];
  return lines.join('\n') + '\n';
}

function tableText(t: TableInfo, stats: Map<string, ColumnStatsEntry> | null): string {
  if (t.skipped) return `${t.kind} ${visible(t.name)}: not read (the time budget ran out)\n`;
  const rows =
    t.rowCount === null ? 'rows unknown' : `${t.rowCountEstimated ? 'about ' : ''}${plural(t.rowCount, 'row')}`;
  const lines = [`${t.kind} ${visible(t.name)}${t.withoutRowid ? ' (WITHOUT ROWID)' : ''}: ${rows}`];
  if (t.error) lines.push(`  error: ${visible(t.error)}`);
  if (t.comment) lines.push(`  comment: ${visible(t.comment)}`);
  const width = Math.min(30, Math.max(0, ...t.columns.map((c) => displayWidth(visible(c.name)))));
  const typeWidth = Math.min(20, Math.max(0, ...t.columns.map((c) => displayWidth(typeText(c)))));
  if (t.columns.length) lines.push('  columns:', ...t.columns.map((c) => columnLine(c, t, width, typeWidth)));
  if (t.foreignKeys.length) lines.push('  foreign keys:', ...t.foreignKeys.map((fk) => `    ${foreignKeyText(fk)}`));
  if (t.indexes.length) lines.push('  indexes:', ...t.indexes.map((ix) => `    ${indexText(ix)}`));
  const entries = stats ? t.columns.map((c) => stats.get(c.name)).filter((e): e is ColumnStatsEntry => !!e) : [];
  if (entries.length) {
    lines.push('  statistics:');
    for (const e of entries)
      lines.push(
        `    ${padEndWidth(visible(e.column), width)}  ${'error' in e ? `failed: ${visible(e.error)}` : statsSummary(e)}`,
      );
  }
  return lines.join('\n') + '\n';
}

/** The whole text: report, then one block per table and view. `stats` null leaves statistics out. */
export function formatSchemaText(report: OpenReport, schema: Schema, stats: ColumnStatsEntry[] | null): string {
  const byTable = new Map<string, Map<string, ColumnStatsEntry>>();
  for (const e of stats ?? []) {
    if (!byTable.has(e.table)) byTable.set(e.table, new Map());
    byTable.get(e.table)!.set(e.column, e);
  }
  const blocks = schema.tables.map((t) => tableText(t, stats ? (byTable.get(t.name) ?? new Map()) : null));
  const skipped = schema.incomplete
    ? `\n${plural(schema.incomplete.skipped, 'object')} not read: reading stopped after ${schema.incomplete.budgetMs / 1000} s (raise --budget)`
    : '';
  const summary = `${plural(schema.tables.filter((t) => t.kind !== 'view').length, 'table')}, ${plural(schema.tables.filter((t) => t.kind === 'view').length, 'view')}, ${plural(schema.foreignKeys.length, 'foreign key')}${skipped}`;
  return [reportText(report) + summary + '\n', ...blocks].join('\n');
}
