// BASELINE tools: the measured reference point of `dowser eval-tools`, NOT the product.
//
// They are deliberately plain, so the product tools (src/core/tools, issue 3) have a fixed
// number to beat and a regression shows up as falling toward it:
//   searchColumn  BM25 (MiniSearch, plain BM25: d = 0) over one document per column, the text
//                 "table column" with names split on `_`, other punctuation and camelCase; no
//                 stemming, stop words, descriptions, values or foreign keys. Columns sharing no
//                 word with the question follow in schema order (a full ranking, as scoring
//                 every column would give), so k columns come back whenever there are k.
//   searchValue   exact and LIKE '%query%' lookups over the text columns: exact case first, then
//                 case-insensitive equality, prefix, substring. It finds nothing for a whole
//                 question, by design: its searchValue recall@5 with the question is ~0.
//   joinOneHop    true only for a declared foreign key pairing the two columns.

import MiniSearch from 'minisearch';
import type { EvalDatabase, ToolsUnderTest, ToolsUnderTestFactory, ValueRef } from '../../core/eval/types';
import type { ColumnRef } from '../../core/retrieval/types';
import { quoteIdent } from '../../core/sql/quote';
import type { ColumnInfo, Schema } from '../../core/types';

/** Words of a name or a question: `_`/punctuation/camelCase boundaries, lower case. */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .map((w) => w.toLowerCase())
    .filter(Boolean);
}

interface ColumnDoc {
  id: number;
  table: string;
  column: string;
  text: string;
}

/** Text columns: TEXT affinity, or no declared type (SQLite stores text there as given). */
export function isTextColumn(c: ColumnInfo): boolean {
  return c.affinity === 'TEXT' || c.declaredType.trim() === '';
}

function buildColumnIndex(schema: Schema): { search(q: string, k: number): ColumnRef[] } {
  const docs: ColumnDoc[] = [];
  for (const t of schema.tables)
    for (const c of t.columns)
      docs.push({ id: docs.length, table: t.name, column: c.name, text: `${t.name} ${c.name}` });
  const index = new MiniSearch<ColumnDoc>({
    fields: ['text'],
    storeFields: [],
    tokenize: splitWords,
    processTerm: (t) => t.toLowerCase(),
    searchOptions: { combineWith: 'OR', prefix: false, fuzzy: false, bm25: { k: 1.2, b: 0.75, d: 0 } },
  });
  index.addAll(docs);
  return {
    search(q, k) {
      const hits = index.search(q);
      // Ties in schema order, so runs are repeatable.
      hits.sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number));
      const order = hits.map((h) => h.id as number);
      // Every column is ranked: those sharing no word with the question (score 0) follow in
      // schema order, so k columns come back whenever the schema has k.
      const matched = new Set(order);
      for (const d of docs) if (order.length < k && !matched.has(d.id)) order.push(d.id);
      return order.slice(0, k).map((id) => ({ table: docs[id].table, column: docs[id].column }));
    },
  };
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** How a value matched: lower is better. */
function matchRank(value: string, query: string): number {
  if (value === query) return 0;
  const v = value.toLowerCase();
  const q = query.toLowerCase();
  if (v === q) return 1;
  if (v.startsWith(q)) return 2;
  return 3;
}

async function lookupValues(db: EvalDatabase, query: string, k: number): Promise<ValueRef[]> {
  const q = query.trim();
  if (!q || k <= 0) return [];
  const found: Array<ValueRef & { rank: number; order: number }> = [];
  let order = 0;
  for (const t of db.schema.tables) {
    if (t.error) continue;
    for (const c of t.columns.filter(isTextColumn)) {
      const col = quoteIdent(c.name);
      const r = await db.exec.query(
        `SELECT DISTINCT ${col} FROM ${quoteIdent(t.name)} WHERE ${col} = ?1 OR ${col} LIKE ?2 ESCAPE '\\' LIMIT ${k * 4}`,
        { params: [q, `%${escapeLike(q)}%`], maxRows: k * 4 },
      );
      for (const [v] of r.rows) {
        if (v === null || v instanceof Uint8Array) continue;
        const value = String(v);
        found.push({ table: t.name, column: c.name, value, rank: matchRank(value, q), order: order++ });
      }
    }
  }
  found.sort((a, b) => a.rank - b.rank || a.value.length - b.value.length || a.order - b.order);
  return found.slice(0, k).map(({ table, column, value }) => ({ table, column, value }));
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** True when a declared foreign key pairs a with b (either direction). */
export function declaredFkPairs(schema: Schema, a: ColumnRef, b: ColumnRef): boolean {
  const pairs = (x: ColumnRef, y: ColumnRef) =>
    schema.foreignKeys.some(
      (fk) =>
        same(fk.table, x.table) &&
        same(fk.refTable, y.table) &&
        fk.from.some((f, i) => same(f, x.column) && same(fk.to[i] ?? '', y.column)),
    );
  return pairs(a, b) || pairs(b, a);
}

/** The baseline tools for one database (see the top of this file). */
export async function createBaselineTools(db: EvalDatabase): Promise<ToolsUnderTest> {
  const columns = buildColumnIndex(db.schema);
  return {
    mode: 'lexical',
    searchColumn: async (question, k) => columns.search(question, k),
    searchValue: (query, k) => lookupValues(db, query, k),
    joinOneHop: async (a, b) => declaredFkPairs(db.schema, a, b),
  };
}

export const baselineToolsFactory: ToolsUnderTestFactory = createBaselineTools;
