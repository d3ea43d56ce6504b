// Foreign keys the schema does not declare but the data and the names imply. Declared keys
// cover 0.937 of Spider dev's gold join conditions; the rest are columns such as
// flights.Airline -> airlines.uid. A candidate needs a name that points at a key of the other
// table and a compatible type; then one read query checks that every value is contained.

import { DowserError } from '../errors';
import type { SqlExecutor } from '../executor';
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
}

interface KeyColumn {
  column: ColumnInfo;
  primary: boolean;
}

/** Lower case without separators: `Order_Item ID` and `orderitemid` compare equal. */
const norm = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/** Lower snake case, camelCase split: `billingAddressId` -> `billing_address_id`. */
const snake = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The table name and its simple singulars: customers -> customer, addresses -> address, cities -> city. */
function tableStems(table: string): string[] {
  const stems = new Set([table]);
  if (table.endsWith('ies')) stems.add(table.slice(0, -3) + 'y');
  if (table.endsWith('es')) stems.add(table.slice(0, -2));
  if (table.endsWith('s') && !table.endsWith('ss')) stems.add(table.slice(0, -1));
  return [...stems].filter((s) => s.replace(/_/g, '').length > 0);
}

/**
 * How a column name points at a table, strongest first: `customer_id`, `CustomerId`,
 * `country_code` (stem + the key's own name); a bare `customer` or `airline`; a role in front,
 * `billing_address_id`, `caused_by_ship_id`; a role in front of a bare name, `lost_in_battle`.
 */
type Naming = 'id' | 'bare' | 'role-id' | 'role-bare';

function namesTable(column: string, table: string, keyName = 'id'): Naming | null {
  const c = norm(column);
  const stems = tableStems(norm(table));
  const suffixes = ['id', norm(keyName)];
  if (stems.some((s) => suffixes.some((x) => c === s + x))) return 'id';
  if (stems.includes(c)) return 'bare';
  const words = snake(column);
  const snakeStems = tableStems(snake(table));
  const snakeSuffixes = ['_id', 'id', '_' + snake(keyName)];
  if (snakeStems.some((s) => snakeSuffixes.some((x) => words.endsWith(`_${s}${x}`)))) return 'role-id';
  if (snakeStems.some((s) => words.endsWith(`_${s}`))) return 'role-bare';
  return null;
}

const NAMING_SCORE: Record<Naming, number> = { id: 3, bare: 2, 'role-id': 2, 'role-bare': 1 };

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

function compatible(a: ColumnInfo, b: ColumnInfo): boolean {
  const x = typeClass(a);
  const y = typeClass(b);
  return x === y || x === 'any' || y === 'any';
}

/** Single-column primary key, plus single-column UNIQUE constraints/indexes named like keys. */
function keyColumns(t: TableInfo): KeyColumn[] {
  const byName = (name: string) => t.columns.find((c) => c.name === name);
  const out: KeyColumn[] = [];
  const pk = t.primaryKey.length === 1 ? byName(t.primaryKey[0]) : undefined;
  if (pk) out.push({ column: pk, primary: true });
  for (const ix of t.indexes) {
    if (!ix.unique || ix.partial || ix.columns.length !== 1 || ix.columns[0] === pk?.name) continue;
    const c = byName(ix.columns[0]);
    if (c && KEY_LIKE.test(norm(c.name)) && !out.some((k) => k.column === c)) out.push({ column: c, primary: false });
  }
  return out;
}

const pairKey = (t: string, c: string, rt: string, rc: string) => `${t}\0${c}\0${rt}\0${rc}`.toLowerCase();

/** Why `a.c -> b.k` may be a key and how likely, or null when the names do not suggest it. */
function judge(a: TableInfo, c: ColumnInfo, b: TableInfo, k: KeyColumn): { score: number; reason: string } | null {
  const styled = k.primary ? namesTable(c.name, b.name, k.column.name) : null;
  if (a === b) {
    if (c === k.column || !k.primary) return null;
    if (SELF_REFERENCE.test(norm(c.name)) || styled === 'role-id') return { score: 2, reason: 'self-reference name' };
    return null;
  }
  const sameName = norm(c.name) === norm(k.column.name);
  if (!styled && !sameName) return null;
  // `id` = `id` between two primary keys says nothing: only a name that points at b counts.
  const ownKey = a.primaryKey.length === 1 && a.primaryKey[0] === c.name;
  const keyNamesTable = namesTable(k.column.name, b.name) === 'id';
  if (ownKey && !styled && !keyNamesTable) return null;
  let score: number;
  let reason: string;
  if (sameName && keyNamesTable) [score, reason] = [3, `same name as the primary key of ${b.name}`];
  else if (styled) [score, reason] = [NAMING_SCORE[styled], `name points at ${b.name}`];
  else if (k.primary) [score, reason] = [2, 'same name as the primary key'];
  else [score, reason] = [1, 'same name as a unique column'];
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
    if (fk.from.length === 1) declaredSources.add(`${fk.table}\0${fk.from[0]}`.toLowerCase());
  }
  const keys = new Map(tables.map((t) => [t, keyColumns(t)]));
  const out: KeyCandidate[] = [];
  for (const a of tables) {
    for (const c of a.columns) {
      if (declaredSources.has(`${a.name}\0${c.name}`.toLowerCase()) || typeClass(c) === 'blob') continue;
      for (const b of tables) {
        for (const k of keys.get(b)!) {
          if (declared.has(pairKey(a.name, c.name, b.name, k.column.name)) || !compatible(c, k.column)) continue;
          const verdict = judge(a, c, b, k);
          if (!verdict) continue;
          out.push({
            edge: {
              fromTable: a.name,
              fromColumns: [c.name],
              toTable: b.name,
              toColumns: [k.column.name],
              inferred: true,
            },
            ...verdict,
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
  return `SELECT count(*) AS present, coalesce(sum(v NOT IN (SELECT ${k} FROM ${quoteIdent(edge.toTable)} WHERE ${k} IS NOT NULL)), 0) AS missing FROM (${sample})`;
}

/**
 * Keys implied by names and types whose values are all contained in the referenced key, as
 * edges with `inferred: true`. Candidates whose check fails to run are skipped, not fatal.
 */
export async function inferForeignKeys(
  schema: Schema,
  exec: SqlExecutor,
  { maxChecks = 200, rowLimit = 100_000, signal }: InferOptions = {},
): Promise<JoinEdge[]> {
  const found: JoinEdge[] = [];
  for (const candidate of keyCandidates(schema).slice(0, maxChecks)) {
    if (signal?.aborted) throw new DowserError('cancelled', 'Looking for undeclared keys was cancelled.');
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
