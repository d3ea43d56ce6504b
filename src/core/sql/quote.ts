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
