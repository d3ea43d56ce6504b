// Link (schema linking, the fifth task of the benchmark study): the tables and columns a question
// likely needs — what the structure linker (retrieval/linker.ts) ties words of the question to,
// united with the tables and columns a preliminary Direct SQL names (the study's PreSQL). The
// result highlights the schema explorer and seeds a plan's chips; nothing here runs SQL.

import type { QuestionLink } from '../retrieval/linker';
import { identName, significant, tokenize } from '../sql/tokens';
import type { Schema } from '../types';

export type LinkSource = 'linker' | 'presql';

export interface LinkedColumn {
  column: string;
  from: LinkSource[];
}

export interface LinkedTable {
  table: string;
  from: LinkSource[];
  columns: LinkedColumn[];
}

export interface SchemaLinkResult {
  tables: LinkedTable[];
  /** The preliminary SQL when a model wrote one. */
  preSql: string | null;
  /** Why PreSQL is missing or failed (no model, an error), for the person. */
  note: string | null;
}

/** Table and column names a SQL text mentions, matched to the schema (case-insensitive). */
export function namesInSql(sql: string, schema: Schema): Array<{ table: string; column?: string }> {
  const words = new Set(
    significant(tokenize(sql))
      .filter((t) => t.kind === 'word' || t.kind === 'ident')
      .map((t) => identName(t).toLowerCase()),
  );
  const out: Array<{ table: string; column?: string }> = [];
  const tables = schema.tables.filter((t) => words.has(t.name.toLowerCase()));
  for (const t of tables) {
    out.push({ table: t.name });
    for (const c of t.columns) if (words.has(c.name.toLowerCase())) out.push({ table: t.name, column: c.name });
  }
  return out;
}

/** The union of the linker's links and the PreSQL's names, tables in schema order. */
export function linkSchema(input: {
  schema: Schema;
  links: readonly QuestionLink[];
  preSql?: string | null;
  note?: string | null;
}): SchemaLinkResult {
  const found = new Map<string, { from: Set<LinkSource>; columns: Map<string, Set<LinkSource>> }>();
  const add = (table: string, column: string | undefined, source: LinkSource) => {
    const t = found.get(table) ?? { from: new Set(), columns: new Map() };
    found.set(table, t);
    t.from.add(source);
    if (column) t.columns.set(column, (t.columns.get(column) ?? new Set()).add(source));
  };
  for (const l of input.links) add(l.table, l.column, 'linker');
  if (input.preSql) for (const n of namesInSql(input.preSql, input.schema)) add(n.table, n.column, 'presql');
  const tables: LinkedTable[] = [];
  for (const t of input.schema.tables) {
    const f = found.get(t.name);
    if (!f) continue;
    tables.push({
      table: t.name,
      from: [...f.from],
      columns: t.columns
        .filter((c) => f.columns.has(c.name))
        .map((c) => ({ column: c.name, from: [...f.columns.get(c.name)!] })),
    });
  }
  return { tables, preSql: input.preSql ?? null, note: input.note ?? null };
}
