// The target database as the agent's prompt carries it (`schemaForPrompt`): every table with its
// columns in a compact listing when that fits COLUMN_LISTING_MAX_TOKENS; above it, after
// Interactive-T2S, a table-level summary only (table | primary key | foreign keys | row count) and
// the tools find the columns, so its size grows with the number of tables, not of columns (see
// `dowser bench`, schema part).
// `fullDdl` is the comparison point: every column, as prompts that carry the whole schema do.
//
// Names come from the user's file. They are written as SQL would (quoted only when needed) and
// their control characters are escaped, so a table name cannot start a new line of the prompt
// and pose as an instruction there.

import { virtualModule } from '../schema/introspect';
import { quoteIdentIfNeeded } from '../sql/quote';
import type { ForeignKey, Schema, TableInfo } from '../types';

// Line and paragraph separators too: some model tokenizers and UIs break lines on them.
const UNSAFE = /[\p{Cc}\u2028\u2029]/gu;

/** Control characters as `\uXXXX`, everything else as is. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An identifier for the prompt: bare when SQL allows, quoted otherwise, controls escaped. */
export function promptIdent(name: string): string {
  return escapeControls(quoteIdentIfNeeded(name));
}

const list = (names: string[]) => names.map(promptIdent).join(', ');

const rowsText = (t: TableInfo) => (t.rowCount === null ? '?' : `${t.rowCountEstimated ? '~' : ''}${t.rowCount}`);

/** `customer_id -> customers.id`; composite keys as `(a, b) -> parent(x, y)`. */
function foreignKeyText(fk: ForeignKey): string {
  if (fk.from.length === 1) return `${promptIdent(fk.from[0])} -> ${promptIdent(fk.refTable)}.${promptIdent(fk.to[0])}`;
  return `(${list(fk.from)}) -> ${promptIdent(fk.refTable)}(${list(fk.to)})`;
}

function primaryKeyText(t: TableInfo): string {
  if (t.primaryKey.length === 0) return '-';
  return t.primaryKey.length === 1 ? promptIdent(t.primaryKey[0]) : `(${list(t.primaryKey)})`;
}

function summaryName(t: TableInfo): string {
  const marks = [
    t.kind === 'view' ? 'view' : t.kind === 'virtual' ? 'virtual' : null,
    t.error ? 'unreadable' : null,
  ].filter(Boolean);
  return promptIdent(t.name) + (marks.length ? ` (${marks.join(', ')})` : '');
}

/** The first line of the summary: what each field of the lines below is. */
export const TABLE_SUMMARY_HEADER = 'table | primary key | foreign keys | rows';

/**
 * A header, then one line per table and view, `-` for an empty field:
 * `orders | order_id | customer_id -> customers.customer_id; employee_id -> employees.employee_id | 2000`
 * The header names the fields once: repeating "pk" and "rows" on every line cost 7% more tokens
 * (200 x 50 synthetic schema: 5,890 tokens against 5,500).
 */
export function tableSummary(schema: Schema): string {
  const lines = schema.tables.map((t) => {
    const keys = t.foreignKeys.length ? t.foreignKeys.map(foreignKeyText).join('; ') : '-';
    return `${summaryName(t)} | ${primaryKeyText(t)} | ${keys} | ${rowsText(t)}`;
  });
  return [TABLE_SUMMARY_HEADER, ...lines].join('\n');
}

function createTable(t: TableInfo): string {
  const lines = t.columns.map(
    (c) => `  ${promptIdent(c.name)}${c.declaredType ? ' ' + escapeControls(c.declaredType) : ''}`,
  );
  if (t.primaryKey.length) lines.push(`  PRIMARY KEY (${list(t.primaryKey)})`);
  for (const fk of t.foreignKeys)
    lines.push(`  FOREIGN KEY (${list(fk.from)}) REFERENCES ${promptIdent(fk.refTable)} (${list(fk.to)})`);
  return `CREATE TABLE ${promptIdent(t.name)} (\n${lines.join(',\n')}\n);`;
}

/** A view's columns without its body (`AS …`): the body is SQL the prompt has no use for. */
function createView(t: TableInfo): string {
  return `CREATE VIEW ${promptIdent(t.name)} (${list(t.columns.map((c) => c.name))}) AS …;`;
}

function createVirtual(t: TableInfo): string {
  const module = virtualModule(t.sql);
  return `CREATE VIRTUAL TABLE ${promptIdent(t.name)} USING ${module ? escapeControls(module) : '?'} (${list(t.columns.map((c) => c.name))});`;
}

/** CREATE statements with every column, its declared type, the primary key and the foreign keys. */
export function fullDdl(schema: Schema): string {
  return schema.tables
    .map((t) => (t.kind === 'view' ? createView(t) : t.kind === 'virtual' ? createVirtual(t) : createTable(t)))
    .join('\n\n');
}

const SHORT_TYPE: Record<string, string> = { INTEGER: 'int', TEXT: 'text', REAL: 'real', NUMERIC: 'num', BLOB: 'blob' };

/** Dates and booleans are stored as text or numbers, but their declared type says what they mean. */
function shortType(declared: string, affinity: string): string | undefined {
  if (!declared) return undefined;
  if (/datetime|timestamp/i.test(declared)) return 'datetime';
  if (/date/i.test(declared)) return 'date';
  if (/time/i.test(declared)) return 'time';
  if (/bool/i.test(declared)) return 'bool';
  return SHORT_TYPE[affinity];
}

/** A column as the listing writes it: name, short type, `pk`, and `→ table.column` for a one-column key. */
function listedColumn(t: TableInfo, c: TableInfo['columns'][number]): string {
  const parts = [promptIdent(c.name)];
  const type = shortType(c.declaredType, c.affinity);
  if (type) parts.push(type);
  if (t.primaryKey.length === 1 && t.primaryKey[0] === c.name) parts.push('pk');
  const fk = t.foreignKeys.find((k) => k.from.length === 1 && k.from[0] === c.name);
  if (fk) parts.push(`→ ${promptIdent(fk.refTable)}.${promptIdent(fk.to[0])}`);
  return parts.join(' ');
}

/**
 * Every table with its columns on one line, `singer(Singer_ID int pk, Name text, …) 6 rows`, keys
 * inline (composite keys after the columns): the compact `table(col type, …)` form that lets a
 * plan name real columns. It grows with the number of columns, so the prompt uses it only for
 * small schemas (see `schemaForPrompt`).
 */
export function columnListing(schema: Schema): string {
  return schema.tables
    .map((t) => {
      const cols = t.columns.filter((c) => !c.hidden).map((c) => listedColumn(t, c));
      const extra: string[] = [];
      if (t.primaryKey.length > 1) extra.push(`pk (${list(t.primaryKey)})`);
      for (const fk of t.foreignKeys) if (fk.from.length > 1) extra.push(foreignKeyText(fk).replace(' -> ', ' → '));
      const kind = t.kind === 'view' ? ' view' : t.kind === 'virtual' ? ' virtual' : '';
      const rows = t.rowCount === null ? '' : ` ${t.rowCountEstimated ? 'about ' : ''}${t.rowCount} rows`;
      return `${promptIdent(t.name)}${kind}(${[...cols, ...extra].join(', ')})${rows}${t.error ? ' unreadable' : ''}`;
    })
    .join('\n');
}

/** Prompt budget for the column listing, in (estimated) tokens; above it the table summary is used. */
export const COLUMN_LISTING_MAX_TOKENS = 1500;

/** A cheap token estimate for identifier-heavy text (about 3.2 characters a token with o200k). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 3.2);

/** The database as the prompt carries it: every column when that fits the budget, else tables only. */
export function schemaForPrompt(schema: Schema): { text: string; columns: boolean } {
  const listing = columnListing(schema);
  if (estimateTokens(listing) <= COLUMN_LISTING_MAX_TOKENS) return { text: listing, columns: true };
  return { text: tableSummary(schema), columns: false };
}
