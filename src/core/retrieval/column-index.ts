// SearchColumn's ranking. Lexical BM25 (MiniSearch) over identifier words, descriptions and value
// hints, plus: exact-name matches, tables named in the question, value links (question words that
// are cell values point to their column), an optional semantic score (embeddings), and the join
// keys between the best tables (a question about two tables needs the columns that join them).
// The question's words reach further than their stems, by general means only: WordNet relations
// (lexicon.ts: synonyms, derived forms, attributes), stems that one ending apart ("weigh" /
// "weight"), and abbreviation rules (abbreviations.ts: `cntry_cd`, `dob`, `mpg`). At least
// `candidates` columns are scored before cutting to k; when fewer than k columns share anything
// with the question, the list is filled with the others (score 0), so k come back whenever the
// schema has k, and the scores show how weak the tail is.

import MiniSearch from 'minisearch';
import type { ColumnStats, Schema } from '../types';
import { stemmer } from 'stemmer';
import { abbreviationMatches } from './abbreviations';
import { columnSentence, valueHints } from './column-text';
import type { Lexicon } from './lexicon';
import { identifierTerms, questionTerms, stemAll } from './text';
import { dropPossessives, splitIdentifier, words } from '../text/normalize';
import type { ColumnHit } from './types';
import { sameStem } from './value-rank';

export type ColumnDescriptions = Map<string, Map<string, string>>;

export interface IndexedColumn {
  table: string;
  column: string;
  declaredType: string;
  description: string | null;
  stats: ColumnStats | null;
  isKey: boolean;
  /** The sentence embedded for the semantic score. */
  sentence: string;
}

export interface ValueLink {
  table: string;
  column: string;
  value: string;
  /** 0..1, how well the question's words match the value. */
  score: number;
}

export interface ColumnSearchOptions {
  k?: number;
  /** Columns scored before cutting to k (at least 10). */
  candidates?: number;
  valueLinks?: ValueLink[];
  /** Cosine similarity per column, in `columns` order, when embeddings are available. */
  semantic?: Float32Array | null;
}

const key = (table: string, column: string) => `${table.toLowerCase()}\u0000${column.toLowerCase()}`;
/** Column names that say little on their own: matching them exactly counts less. */
const GENERIC = new Set(['id', 'name', 'type', 'code', 'date', 'value', 'description', 'status', 'number']);

const WEIGHTS = { lexical: 1, exact: 0.6, genericExact: 0.3, table: 0.25, valueLink: 0.9, semantic: 0.8, joinKey: 1 };
/** Query-term weights of the ways a question word reaches the schema's words. */
const TERM_WEIGHTS = { word: 1, abbreviation: 0.8, stem: 0.6, lexicon: 0.5 };

/** "tallest" -> tall, "biggest" -> big, "larger" -> larg: the adjective WordNet knows. */
function comparativeBases(stem: string): string[] {
  const m = stem.match(/^(.{3,}?)(est|er)$/);
  if (!m) return [];
  const base = m[1];
  const out = [stemmer(base), stemmer(base + 'e')];
  if (/(.)\1$/.test(base)) out.push(base.slice(0, -1));
  if (base.endsWith('i')) out.push(stemmer(base.slice(0, -1) + 'y'));
  return out;
}

export function descriptionOf(
  descriptions: ColumnDescriptions | undefined,
  table: string,
  column: string,
): string | null {
  if (!descriptions) return null;
  const t = descriptions.get(table) ?? descriptions.get(table.toLowerCase());
  return t?.get(column) ?? t?.get(column.toLowerCase()) ?? null;
}

export class ColumnIndex {
  readonly columns: IndexedColumn[];
  private readonly byKey = new Map<string, number>();
  private readonly search_: MiniSearch;
  private readonly schema: Schema;
  private readonly tableTerms = new Map<string, string[]>();
  /** Lower-case parts of every table and column name (abbreviation rules compare them). */
  private readonly tokens = new Set<string>();
  /** Stemmed terms of every table and column name. */
  private readonly nameStems = new Set<string>();

  private constructor(
    schema: Schema,
    columns: IndexedColumn[],
    private readonly lexicon: Lexicon | null,
  ) {
    this.schema = schema;
    this.columns = columns;
    columns.forEach((c, i) => this.byKey.set(key(c.table, c.column), i));
    for (const t of schema.tables) this.tableTerms.set(t.name, identifierTerms(t.name));
    for (const name of [...columns.map((c) => c.column), ...schema.tables.map((t) => t.name)]) {
      for (const part of splitIdentifier(name)) this.tokens.add(part);
      for (const term of identifierTerms(name)) this.nameStems.add(term);
    }
    this.search_ = new MiniSearch({
      fields: ['column', 'table', 'description', 'values'],
      // Terms are prepared below (split, expanded, stemmed): MiniSearch must not re-tokenise them.
      tokenize: (s) => s.split(' ').filter(Boolean),
      processTerm: (t) => t,
      searchOptions: { boost: { column: 3, table: 1.2, description: 1, values: 0.5 }, combineWith: 'OR' },
    });
    this.search_.addAll(
      columns.map((c, id) => ({
        id,
        column: identifierTerms(c.column).join(' '),
        table: identifierTerms(c.table).join(' '),
        description: c.description ? stemAll(words(c.description)).join(' ') : '',
        values: stemAll(valueHints(c.stats).flatMap(words)).join(' '),
      })),
    );
  }

  static build(
    schema: Schema,
    options: { stats?: Map<string, ColumnStats>; descriptions?: ColumnDescriptions; lexicon?: Lexicon | null } = {},
  ): ColumnIndex {
    const columns: IndexedColumn[] = [];
    const fkColumns = new Set(
      schema.foreignKeys.flatMap((fk) => [
        ...fk.from.map((c) => key(fk.table, c)),
        ...fk.to.map((c) => key(fk.refTable, c)),
      ]),
    );
    for (const t of schema.tables) {
      if (t.error) continue;
      for (const c of t.columns) {
        const stats = options.stats?.get(`${t.name}.${c.name}`) ?? null;
        const description = descriptionOf(options.descriptions, t.name, c.name);
        columns.push({
          table: t.name,
          column: c.name,
          declaredType: c.declaredType,
          description,
          stats,
          isKey: c.pkIndex > 0 || fkColumns.has(key(t.name, c.name)),
          sentence: columnSentence(t.name, c.name, description, stats),
        });
      }
    }
    return new ColumnIndex(schema, columns, options.lexicon ?? null);
  }

  /** The question's terms with a weight each: its own stems, then what they reach. */
  private weightedTerms(question: string): Map<string, number> {
    const weights = new Map<string, number>();
    const add = (term: string, w: number) => {
      if (term.length > 0 && (weights.get(term) ?? 0) < w) weights.set(term, w);
    };
    const own = questionTerms(question);
    for (const t of own) add(t, TERM_WEIGHTS.word);
    for (const t of own) {
      for (const base of [t, ...comparativeBases(t)])
        for (const r of this.lexicon?.get(base) ?? []) add(r, TERM_WEIGHTS.lexicon);
      if (t.length < 4) continue;
      for (const n of this.nameStems) if (n !== t && sameStem(t, n)) add(n, TERM_WEIGHTS.stem);
    }
    const all = words(dropPossessives(question));
    for (const token of abbreviationMatches(this.tokens, all).keys()) add(stemmer(token), TERM_WEIGHTS.abbreviation);
    return weights;
  }

  indexOf(table: string, column: string): number | undefined {
    return this.byKey.get(key(table, column));
  }

  search(question: string, options: ColumnSearchOptions = {}): ColumnHit[] {
    const k = options.k ?? 5;
    const candidates = Math.max(10, options.candidates ?? 10, k);
    const scores = new Float64Array(this.columns.length);
    const reasons: string[][] = this.columns.map(() => []);
    const weights = this.weightedTerms(question);
    const qSet = new Set(questionTerms(question));

    // 1. Lexical BM25 with weighted terms, normalised to 0..1 within this query.
    const lexical = weights.size
      ? this.search_.search([...weights.keys()].join(' '), { boostTerm: (term) => weights.get(term) ?? 1 })
      : [];
    const top = lexical[0]?.score ?? 1;
    for (const r of lexical) {
      scores[r.id as number] += WEIGHTS.lexical * (r.score / top);
      reasons[r.id as number].push('lexical');
    }

    // 2. Exact names: every word of the column name appears in the question (stemmed).
    const qWords = words(question);
    const qWordStems = new Set(stemAll(qWords));
    this.columns.forEach((c, i) => {
      const parts = splitIdentifier(c.column);
      if (parts.length && stemAll(parts).every((p) => qWordStems.has(p))) {
        const generic = parts.length === 1 && GENERIC.has(parts[0]);
        scores[i] += generic ? WEIGHTS.genericExact : WEIGHTS.exact;
        reasons[i].push('exact name');
      }
    });

    // 3. Tables named in the question lift their columns a little.
    const namedTables = new Set<string>();
    for (const [table, terms] of this.tableTerms) {
      const own = terms.filter((t) => t !== 'id');
      if (own.length && own.every((t) => qSet.has(t))) namedTables.add(table);
    }
    this.columns.forEach((c, i) => {
      if (namedTables.has(c.table) && scores[i] > 0) scores[i] += WEIGHTS.table;
    });

    // 4. Value links: a cell value named in the question points at its column.
    for (const link of options.valueLinks ?? []) {
      const i = this.indexOf(link.table, link.column);
      if (i === undefined) continue;
      scores[i] += WEIGHTS.valueLink * link.score;
      reasons[i].push(`value link: ${JSON.stringify(link.value)}`);
    }

    // 5. Semantic similarity (embeddings), rescaled to 0..1 over this query.
    if (options.semantic && options.semantic.length === this.columns.length) {
      let lo = Infinity,
        hi = -Infinity;
      for (const s of options.semantic) {
        lo = Math.min(lo, s);
        hi = Math.max(hi, s);
      }
      const span = hi - lo || 1;
      options.semantic.forEach((s, i) => {
        const v = (s - lo) / span;
        scores[i] += WEIGHTS.semantic * v;
        if (v > 0.8) reasons[i].push('embedding');
      });
    }

    // 6. Join keys between the best tables.
    const ranked = [...scores.keys()].filter((i) => scores[i] > 0).sort((a, b) => scores[b] - scores[a] || a - b);
    const bestByTable = new Map<string, number>();
    for (const i of ranked.slice(0, candidates)) {
      const t = this.columns[i].table;
      if (!bestByTable.has(t)) bestByTable.set(t, scores[i]);
    }
    for (const t of namedTables) if (!bestByTable.has(t)) bestByTable.set(t, WEIGHTS.table);
    const topTables = [...bestByTable.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([t]) => t);
    for (const fk of this.schema.foreignKeys) {
      if (fk.table === fk.refTable || !topTables.includes(fk.table) || !topTables.includes(fk.refTable)) continue;
      const pairScore = WEIGHTS.joinKey * Math.min(bestByTable.get(fk.table)!, bestByTable.get(fk.refTable)!);
      const ends = [...fk.from.map((c) => [fk.table, c]), ...fk.to.map((c) => [fk.refTable, c])];
      for (const [t, c] of ends) {
        const i = this.indexOf(t, c);
        if (i === undefined) continue;
        if (scores[i] < pairScore) scores[i] = pairScore;
        if (!reasons[i].includes('join key')) reasons[i].push('join key');
      }
    }

    const order = [...scores.keys()]
      .filter((i) => scores[i] > 0)
      .sort((a, b) => scores[b] - scores[a] || a - b)
      .slice(0, candidates);
    if (order.length < k) {
      // Nothing else shares a word with the question: the other columns follow with score 0,
      // those of tables already listed first, then in schema order.
      const listed = new Set(order);
      const tables = new Set(order.map((i) => this.columns[i].table));
      const rest = [...this.columns.keys()].filter((i) => !listed.has(i));
      rest.sort(
        (a, b) => Number(tables.has(this.columns[b].table)) - Number(tables.has(this.columns[a].table)) || a - b,
      );
      for (const i of rest.slice(0, k - order.length)) {
        order.push(i);
        reasons[i].push('no word in common');
      }
    }
    return order.slice(0, k).map((i) => {
      const c = this.columns[i];
      return {
        table: c.table,
        column: c.column,
        declaredType: c.declaredType,
        description: c.description,
        stats: c.stats,
        score: Math.round(scores[i] * 1000) / 1000,
        reasons: reasons[i],
      };
    });
  }
}
