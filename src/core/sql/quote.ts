// Every identifier that goes into generated SQL passes through quoteIdent: names with spaces,
// quotes, unicode, mixed case or SQL keywords are common in real files.

export function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}

export function quoteLiteral(value: string): string {
  return "'" + value.replace(/'/g, "''") + "'";
}

/** `"table"."column"` */
export function qualified(table: string, column: string): string {
  return `${quoteIdent(table)}.${quoteIdent(column)}`;
}

const SIMPLE_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Words SQLite would read as syntax; an identifier spelled like one must be quoted.
const RESERVED = new Set(
  'abort action add after all alter always analyze and as asc attach autoincrement before begin between by cascade case cast check collate column commit conflict constraint create cross current current_date current_time current_timestamp database default deferrable deferred delete desc detach distinct do drop each else end escape except exclude exclusive exists explain fail filter first following for foreign from full generated glob group groups having if ignore immediate in index indexed initially inner insert instead intersect into is isnull join key last left like limit match materialized natural no not nothing notnull null nulls of offset on or order others outer over partition plan pragma preceding primary query raise range recursive references regexp reindex release rename replace restrict returning right rollback row rows savepoint select set table temp temporary then ties to transaction trigger unbounded union unique update using vacuum values view virtual when where window with without'.split(
    ' ',
  ),
);

/** Quotes only when needed, for SQL people read: `name` stays bare, `order details` is quoted. */
export function quoteIdentIfNeeded(name: string): string {
  return SIMPLE_IDENT.test(name) && !RESERVED.has(name.toLowerCase()) ? name : quoteIdent(name);
}
