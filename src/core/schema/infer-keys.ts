// Foreign keys the schema does not declare but the data and the names imply. Declared keys
// cover 0.937 of Spider dev's gold join conditions; the rest are columns such as
// flights.Airline -> airlines.uid. A candidate needs a name that points at a key of the other
// table and a compatible type; then one read query checks that every value is contained.
//
// Files made by scripts often declare no keys at all. There a column named like its table's key
// (`id`, `course_id`, `sbCustId` in sbCustomer) is a key when its values are unique (one more read
// query, once per column); so is a key-like name that points at no other table (`syllabus_code`),
// joined only from the same name on a side whose values repeat. Names may carry a prefix shared by
// the tables (`sb` in sbCustomer, sbTransaction) and abbreviate the table's words (Cust, Acct):
// `sbTxCustId` ends with the words of the key `sbCustId`, so it points at sbCustomer.

import { DowserError } from '../errors';
import type { SqlExecutor } from '../executor';
import { abbreviates } from '../retrieval/abbreviations';
import type { JoinEdge } from '../retrieval/types';
import { quoteIdent } from '../sql/quote';
import type { Affinity, ColumnInfo, Schema, TableInfo } from '../types';

export interface InferOptions {
  /** Containment queries at most (best-ranked candidates first). */
  maxChecks?: number;
  /** Non-null values of the referencing column checked per candidate (huge tables: a prefix). */
  rowLimit?: number;
  signal?: AbortSignal;
}

export interface KeyCandidate {
  edge: JoinEdge;
  /** Higher is more likely; decides which candidates get checked first. */
  score: number;
  reason: string;
  /** The referenced column is no declared key: its non-null values must be unique. */
  needsUniqueTarget?: boolean;
  /** The referencing column's values must repeat (joined on the same name only: the direction). */
  needsRepeatingSource?: boolean;
}

/**
 * A column other tables may point at. `primary`: the declared single-column primary key;
 * `unique`: a declared UNIQUE column named like a key; `named`: undeclared, in a table without a
 * single-column primary key, named like that table's key; `same`: undeclared, a key-like name
 * that points at no other table, joined on the same name only. The last two need unique values.
 */
interface KeyColumn {
  column: ColumnInfo;
  kind: 'primary' | 'unique' | 'named' | 'same';
}

/** Lower case without separators: `Order_Item ID` and `orderitemid` compare equal. */
const norm = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/** Lower snake case, camelCase split: `billingAddressId` -> `billing_address_id`. */
const snake = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Lower-case words of a name, camelCase and snake_case split: `sbTxCustId` -> sb, tx, cust, id. */
const wordsOf = (name: string) =>
  snake(name)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The words without as much of the shared prefix as they start with, keeping one at least. */
function unprefixed(words: string[], prefix: string[]): string[] {
  let i = 0;
  while (i < prefix.length && i < words.length - 1 && words[i] === prefix[i]) i++;
  return i === 0 ? words : words.slice(i);
}

/**
 * Leading words shared by more than half of the tables (and at least two), each keeping a word
 * of its own: `sbCustomer`, `sbTransaction`, `sbMerchant` -> [sb]. Word by word, most common first.
 */
function sharedPrefix(tables: TableInfo[]): string[] {
  const lists = tables.map((t) => wordsOf(t.name));
  const needed = Math.max(2, Math.floor(tables.length / 2) + 1);
  const prefix: string[] = [];
  for (;;) {
    const counts = new Map<string, number>();
    for (const w of lists) {
      if (w.length > prefix.length + 1 && prefix.every((p, i) => w[i] === p))
        counts.set(w[prefix.length], (counts.get(w[prefix.length]) ?? 0) + 1);
    }
    const best = [...counts].sort((x, y) => y[1] - x[1])[0];
    if (!best || best[1] < needed) return prefix;
    prefix.push(best[0]);
  }
}

/** The table name and its simple singulars: customers -> customer, addresses -> address, cities -> city. */
function tableStems(table: string): string[] {
  const stems = new Set([table]);
  if (table.endsWith('ies')) stems.add(table.slice(0, -3) + 'y');
  if (table.endsWith('es')) stems.add(table.slice(0, -2));
  if (table.endsWith('s') && !table.endsWith('ss')) stems.add(table.slice(0, -1));
  return [...stems].filter((s) => s.replace(/_/g, '').length > 0);
}

/** The forms of a name the rules compare. */
interface NameForms {
  name: string;
  norm: string;
  /** Words after the shared prefix (all of them when the name does not start with it). */
  words: string[];
  /** Those words joined: `sbTxCustId` -> txcustid. */
  joined: string;
  /** As a table's name: what every stem of it starts with (Names.mayName), once asked. */
  core?: string;
}

const commonStart = (list: string[]) =>
  list.reduce((a, b) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  });

/**
 * What the name rules need to know about the whole database (its tables' shared prefix), with
 * each name's forms computed once: a wide schema compares every column with every key.
 */
class Names {
  private readonly forms = new Map<string, NameForms>();
  private readonly ownKeys = new Map<string, 'bare' | 'named' | null>();
  private readonly namings = new Map<string, Naming | null>();

  /** Leading words most table names share (`sb` in sbCustomer, sbTransaction), or none. */
  constructor(readonly prefix: string[]) {}

  of(name: string): NameForms {
    let f = this.forms.get(name);
    if (!f) {
      const words = unprefixed(wordsOf(name), this.prefix);
      f = { name, norm: norm(name), words, joined: words.join('') };
      this.forms.set(name, f);
    }
    return f;
  }

  /** Memoized namesTable: the same column names recur in many tables (`id`, `name`). */
  points(column: string, table: string, keyName = 'id'): Naming | null {
    const key = `${column}\0${table}\0${keyName}`;
    let v = this.namings.get(key);
    if (v === undefined) {
      v = namesTable(column, table, keyName, this);
      this.namings.set(key, v);
    }
    return v;
  }

  /** Memoized ownKeyName. */
  ownKey(column: string, table: string): 'bare' | 'named' | null {
    const key = `${column}\0${table}`;
    let v = this.ownKeys.get(key);
    if (v === undefined) {
      v = ownKeyName(column, table, this);
      this.ownKeys.set(key, v);
    }
    return v;
  }

  /**
   * A quick test that must hold before namesTable or ownKeyName can find the column pointing at
   * the table: it holds what every stem of the table's name starts with, or it has one word per
   * word of the table's name (then a key word), each abbreviating it.
   */
  mayName(column: NameForms, table: NameForms): boolean {
    if (table.core === undefined) {
      const stems = [
        ...tableStems(table.norm),
        ...tableStems(table.joined),
        ...tableStems(snake(table.name)).map(norm),
        ...tableStems(table.words.join('_')).map(norm),
      ];
      table.core = stems.length > 0 ? commonStart(stems) : '';
    }
    if (column.norm.includes(table.core) || column.joined.includes(table.core)) return true;
    const t = table.words;
    const w = column.words;
    return w.length === t.length + 1 && t.length > 0 && w[0][0] === t[0][0] && wordsAbbreviate(w.slice(0, -1), t);
  }
}

/**
 * How a column name points at a table, strongest first: `customer_id`, `CustomerId`,
 * `country_code` (stem + the key's own name); a bare `customer` or `airline`; a role in front,
 * `billing_address_id`, `caused_by_ship_id`; a role in front of a bare name, `lost_in_battle`.
 */
type Naming = 'id' | 'bare' | 'role-id' | 'role-bare';

function namesTable(column: string, table: string, keyName: string, names: Names): Naming | null {
  const tableWords = names.of(table).words;
  const cs = [names.of(column).norm, names.of(column).joined];
  const stems = [...tableStems(names.of(table).norm), ...tableStems(names.of(table).joined)];
  const key = names.of(keyName);
  const suffixes = ['id', key.norm, key.joined];
  if (stems.some((s) => suffixes.some((x) => cs.includes(s + x)))) return 'id';
  if (stems.some((s) => cs.includes(s))) return 'bare';
  const words = snake(column);
  const snakeStems = [...tableStems(snake(table)), ...tableStems(tableWords.join('_'))];
  const snakeSuffixes = ['_id', 'id', '_' + snake(keyName), '_' + key.words.join('_')];
  if (snakeStems.some((s) => snakeSuffixes.some((x) => words.endsWith(`_${s}${x}`)))) return 'role-id';
  if (snakeStems.some((s) => words.endsWith(`_${s}`))) return 'role-bare';
  return null;
}

const NAMING_SCORE: Record<Naming | 'role-key', number> = {
  id: 3,
  bare: 2,
  'role-id': 2,
  'role-key': 2,
  'role-bare': 1,
};

/** Last words that make a name a key's: `course_id`, `country_code`, `room_no`. */
const KEY_WORDS = new Set(['id', 'code', 'key', 'no', 'num', 'number']);

/** Each short word is, or abbreviates, the long word at its place (the last long word also singular). */
function wordsAbbreviate(short: string[], long: string[]): boolean {
  if (short.length === 0 || short.length !== long.length) return false;
  return short.every((s, i) =>
    (i === long.length - 1 ? tableStems(long[i]) : [long[i]]).some((w) => s === w || abbreviates(s, w)),
  );
}

/**
 * Whether the column is named like the table's own key: `bare` for a lone key word (`id`, `code`,
 * `zqId`), `named` when the words before the key word name the table, whole or abbreviated, after
 * the shared prefix (`course_id` in course, `CountryCode` in countries, `sbCustId` in sbCustomer).
 */
function ownKeyName(column: string, table: string, names: Names): 'bare' | 'named' | null {
  const w = names.of(column).words;
  if (w.length === 0 || !KEY_WORDS.has(w[w.length - 1])) return null;
  if (w.length === 1) return 'bare';
  if (!names.mayName(names.of(column), names.of(table))) return null;
  const t = names.of(table).words;
  return wordsAbbreviate(w.slice(0, -1), t) || names.points(column, table) === 'id' ? 'named' : null;
}

/**
 * A role in front of a key's own words, after the shared prefix: `sbTxCustId` ends with the words
 * of `sbCustId`, `billing_cust_id` with those of `cust_id`. The key must name its table in two
 * words or more (`id` alone would match every `*_id`).
 */
function endsWithKey(column: string, key: string, table: string, names: Names): 'id' | 'role-key' | null {
  const k = names.of(key).words;
  const c = names.of(column).words;
  if (k.length < 2 || c.length < k.length || !k.every((w, i) => c[c.length - k.length + i] === w)) return null;
  if (names.ownKey(key, table) !== 'named') return null;
  return c.length === k.length ? 'id' : 'role-key';
}

// Columns that point back at their own table's key (a tree or a chain of rows), besides a role in
// front of the table's own name (parent_category_id). Whole names only: previous_balance is not one.
const SELF_REFERENCE =
  /^(parent|manager|boss|supervisor|mentor|reportsto|superior|predecessor|successor|previous|prev|next)(id)?$/;

// A UNIQUE column that is not the primary key is a join target only when it is named like one.
const KEY_LIKE = /(id|code|key|no|num|number)$/;

type TypeClass = 'number' | 'text' | 'any' | 'blob';

function typeClass(c: ColumnInfo): TypeClass {
  const byAffinity: Record<Affinity, TypeClass> = {
    INTEGER: 'number',
    REAL: 'number',
    NUMERIC: 'number',
    TEXT: 'text',
    BLOB: 'blob',
  };
  // No declared type at all (common in files made by scripts): the values decide.
  return c.declaredType.trim() === '' ? 'any' : byAffinity[c.affinity];
}

const compatible = (x: TypeClass, y: TypeClass) => x === y || x === 'any' || y === 'any';

const sourceKey = (t: string, c: string) => `${t}\0${c}`.toLowerCase();

/**
 * Single-column primary key and single-column UNIQUE constraints/indexes named like keys; then
 * undeclared columns that may be keys once their values prove unique (KeyColumn's kinds).
 * Columns with a declared key of their own point elsewhere and are never undeclared keys.
 */
function keyColumns(t: TableInfo, tables: TableInfo[], names: Names, declaredSources: Set<string>): KeyColumn[] {
  const byName = (name: string) => t.columns.find((c) => c.name === name);
  const out: KeyColumn[] = [];
  const pk = t.primaryKey.length === 1 ? byName(t.primaryKey[0]) : undefined;
  if (pk) out.push({ column: pk, kind: 'primary' });
  for (const ix of t.indexes) {
    if (!ix.unique || ix.partial || ix.columns.length !== 1 || ix.columns[0] === pk?.name) continue;
    const c = byName(ix.columns[0]);
    if (c && KEY_LIKE.test(norm(c.name)) && !out.some((k) => k.column === c)) out.push({ column: c, kind: 'unique' });
  }
  const open = t.columns.filter(
    (c) =>
      !out.some((k) => k.column === c) && typeClass(c) !== 'blob' && !declaredSources.has(sourceKey(t.name, c.name)),
  );
  if (!pk) for (const c of open) if (names.ownKey(c.name, t.name)) out.push({ column: c, kind: 'named' });
  // A table with a key of its own holds other unique columns mostly as attributes (cell_number,
  // zip_code): there only `…_id` and `…_key` names count.
  const keyless = out.length === 0;
  for (const c of open) {
    const { words } = names.of(c.name);
    const last = words[words.length - 1];
    if (out.some((k) => k.column === c) || words.length < 2 || !KEY_WORDS.has(last)) continue;
    if (!keyless && last !== 'id' && last !== 'key') continue;
    const pointsAt = (o: TableInfo) =>
      o !== t &&
      names.mayName(names.of(c.name), names.of(o.name)) &&
      (names.ownKey(c.name, o.name) || names.points(c.name, o.name));
    if (tables.some(pointsAt)) continue;
    out.push({ column: c, kind: 'same' });
  }
  return out;
}

/** The schema says the column's values are unique: a single-column primary key or UNIQUE index. */
function declaredUnique(t: TableInfo, c: ColumnInfo): boolean {
  if (t.primaryKey.length === 1 && t.primaryKey[0] === c.name) return true;
  return t.indexes.some((ix) => ix.unique && !ix.partial && ix.columns.length === 1 && ix.columns[0] === c.name);
}

/** The column is its own table's key: the declared one, or (none declared) one named like it. */
function isOwnKey(t: TableInfo, c: ColumnInfo, names: Names): boolean {
  if (t.primaryKey.length === 1) return t.primaryKey[0] === c.name;
  return names.ownKey(c.name, t.name) !== null;
}

const pairKey = (t: string, c: string, rt: string, rc: string) => `${t}\0${c}\0${rt}\0${rc}`.toLowerCase();

/** Why `a.c -> b.k` may be a key and how likely, or null when the names do not suggest it. */
function judge(
  a: TableInfo,
  c: ColumnInfo,
  b: TableInfo,
  k: KeyColumn,
  names: Names,
): { score: number; reason: string } | null {
  const named = k.kind === 'primary' || k.kind === 'named';
  const sameName = names.of(c.name).norm === names.of(k.column.name).norm;
  const styled = named
    ? (names.points(c.name, b.name, k.column.name) ?? endsWithKey(c.name, k.column.name, b.name, names))
    : null;
  if (a === b) {
    if (c === k.column || !named) return null;
    if (
      SELF_REFERENCE.test(names.of(c.name).norm) ||
      SELF_REFERENCE.test(names.of(c.name).joined) ||
      styled === 'role-id' ||
      styled === 'role-key'
    )
      return { score: 2, reason: 'self-reference name' };
    return null;
  }
  if (!styled && !sameName) return null;
  // `id` = `id` between two primary keys says nothing: only a name that points at b counts.
  const ownKey = isOwnKey(a, c, names);
  const keyNamesTable =
    names.points(k.column.name, b.name) === 'id' || (named && names.ownKey(k.column.name, b.name) === 'named');
  if (ownKey && !styled && !keyNamesTable) return null;
  // An undeclared key joined on the same name only: never from another table's own key.
  // Its values must repeat on the referencing side, which a declared unique column never does.
  if (k.kind === 'same' && (ownKey || declaredUnique(a, c))) return null;
  const what = k.kind === 'primary' ? 'the primary key' : k.kind === 'named' ? 'a key-named column' : 'a unique column';
  let score: number;
  let reason: string;
  if (sameName && keyNamesTable) [score, reason] = [3, `same name as ${what} of ${b.name}`];
  else if (styled) [score, reason] = [NAMING_SCORE[styled], `name points at ${b.name}`];
  else if (named) [score, reason] = [2, `same name as ${what}`];
  else [score, reason] = [1, `same name as ${what}`];
  if (typeClass(c) === 'any' || typeClass(k.column) === 'any') score -= 1;
  return { score, reason };
}

/** Name- and type-based candidates, best first; none is checked against the data yet. */
export function keyCandidates(schema: Schema): KeyCandidate[] {
  const tables = schema.tables.filter((t) => t.kind === 'table' && !t.error);
  const declared = new Set<string>();
  const declaredSources = new Set<string>();
  for (const fk of schema.foreignKeys) {
    fk.from.forEach((f, i) => {
      declared.add(pairKey(fk.table, f, fk.refTable, fk.to[i]));
      declared.add(pairKey(fk.refTable, fk.to[i], fk.table, f));
    });
    // A column with a declared single-column key already says where it points.
    if (fk.from.length === 1) declaredSources.add(sourceKey(fk.table, fk.from[0]));
  }
  const names = new Names(sharedPrefix(tables));
  const targets = tables.map((b) => ({
    table: b,
    forms: names.of(b.name),
    keys: keyColumns(b, tables, names, declaredSources).map((k) => ({
      ...k,
      named: k.kind === 'primary' || k.kind === 'named',
      forms: names.of(k.column.name),
      type: typeClass(k.column),
    })),
  }));
  const out: KeyCandidate[] = [];
  for (const a of tables) {
    for (const c of a.columns) {
      const type = typeClass(c);
      if (type === 'blob' || declaredSources.has(sourceKey(a.name, c.name))) continue;
      const cf = names.of(c.name);
      for (const { table: b, forms: bf, keys } of targets) {
        let near: boolean | undefined;
        for (const k of keys) {
          // Most pairs of a wide schema end here, before any name rule runs: between two tables
          // a candidate needs the same name, or a name that may point at b or end with k's words.
          if (a !== b && cf.norm !== k.forms.norm) {
            if (!k.named) continue;
            const mayEnd = k.forms.words.length >= 2 && cf.joined.endsWith(k.forms.joined);
            if (!mayEnd && !(near ??= names.mayName(cf, bf))) continue;
          }
          if (!compatible(type, k.type)) continue;
          if (declared.has(pairKey(a.name, c.name, b.name, k.column.name))) continue;
          const verdict = judge(a, c, b, k, names);
          if (!verdict) continue;
          const undeclared = k.kind === 'named' || k.kind === 'same';
          out.push({
            edge: {
              fromTable: a.name,
              fromColumns: [c.name],
              toTable: b.name,
              toColumns: [k.column.name],
              inferred: true,
            },
            ...verdict,
            ...(undeclared && { needsUniqueTarget: true }),
            ...(k.kind === 'same' && { needsRepeatingSource: true }),
          });
        }
      }
    }
  }
  const label = (x: KeyCandidate) =>
    `${x.edge.fromTable}.${x.edge.fromColumns[0]}>${x.edge.toTable}.${x.edge.toColumns[0]}`;
  return out.sort((x, y) => y.score - x.score || (label(x) < label(y) ? -1 : label(x) > label(y) ? 1 : 0));
}

/**
 * One read statement: how many of the first `rowLimit` non-null values of a.c there are, and
 * how many of them are missing from b.k. NULL keys are left out of the IN list, else `NOT IN`
 * would be NULL (not true) for every missing value.
 */
export function containmentSql(edge: JoinEdge, rowLimit: number): string {
  const [c] = edge.fromColumns.map(quoteIdent);
  const [k] = edge.toColumns.map(quoteIdent);
  const sample = `SELECT ${c} AS v FROM ${quoteIdent(edge.fromTable)} WHERE ${c} IS NOT NULL LIMIT ${Math.floor(rowLimit)}`;
  // Written for every dialect: a CASE, not a sum of booleans; the subquery named (PostgreSQL asks).
  return `SELECT count(*) AS present, coalesce(sum(CASE WHEN v NOT IN (SELECT ${k} FROM ${quoteIdent(edge.toTable)} WHERE ${k} IS NOT NULL) THEN 1 ELSE 0 END), 0) AS missing FROM (${sample}) AS sample`;
}

/**
 * One read statement: how many of the first `rowLimit` non-null values of t.c there are, and how
 * many distinct ones (equal counts: unique, at least in that prefix of the rows).
 */
export function uniquenessSql(table: string, column: string, rowLimit: number): string {
  const c = quoteIdent(column);
  return `SELECT count(*) AS present, count(DISTINCT v) AS distinct_values FROM (SELECT ${c} AS v FROM ${quoteIdent(table)} WHERE ${c} IS NOT NULL LIMIT ${Math.floor(rowLimit)}) AS sample`;
}

/**
 * Keys implied by names and types whose values are all contained in the referenced key, as
 * edges with `inferred: true`. An undeclared referenced key must hold unique values (checked once
 * per column, before the containment query). Candidates whose check fails to run are skipped,
 * not fatal.
 */
export async function inferForeignKeys(
  schema: Schema,
  exec: SqlExecutor,
  { maxChecks = 200, rowLimit = 100_000, signal }: InferOptions = {},
): Promise<JoinEdge[]> {
  const found: JoinEdge[] = [];
  const uniqueness = new Map<string, boolean | null>();
  /** Whether t.c's non-null values are unique; null when there are none or the query failed. */
  const unique = async (table: string, column: string): Promise<boolean | null> => {
    const key = sourceKey(table, column);
    if (!uniqueness.has(key)) {
      let verdict: boolean | null = null;
      try {
        const r = await exec.query(uniquenessSql(table, column, rowLimit), { maxRows: 1 });
        const [present, distinct] = (r.rows[0] ?? []).map(Number);
        verdict = present > 0 ? present === distinct : null;
      } catch (e) {
        if (e instanceof DowserError && (e.code === 'cancelled' || e.code === 'timeout')) throw e;
      }
      uniqueness.set(key, verdict);
    }
    return uniqueness.get(key)!;
  };
  for (const candidate of keyCandidates(schema).slice(0, maxChecks)) {
    if (signal?.aborted) throw new DowserError('cancelled', 'Looking for undeclared keys was cancelled.');
    const { edge } = candidate;
    if (candidate.needsUniqueTarget && (await unique(edge.toTable, edge.toColumns[0])) !== true) continue;
    if (candidate.needsRepeatingSource && (await unique(edge.fromTable, edge.fromColumns[0])) !== false) continue;
    try {
      const r = await exec.query(containmentSql(candidate.edge, rowLimit), { maxRows: 1 });
      const [present, missing] = (r.rows[0] ?? []).map(Number);
      if (present > 0 && missing === 0) found.push(candidate.edge);
    } catch (e) {
      if (e instanceof DowserError && (e.code === 'cancelled' || e.code === 'timeout')) throw e;
    }
  }
  return found;
}
