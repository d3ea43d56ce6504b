// The clause structure of a SELECT, read from tokens the way Spider's parser (process_sql.py)
// divides it: select items, FROM units joined by JOIN (with their ON conditions), WHERE and
// HAVING conditions split at AND/OR, GROUP BY and ORDER BY items, LIMIT, and one set operator
// whose right side is a query of its own. Enough for Spider's hardness rules (hardness.ts) when a
// question file carries no parsed `sql`, and for naming the columns a query selects and filters
// (miss analysis). Not a full parser: what it cannot place it ignores.

import { identName, significant, tokenize, type Token } from '../sql/tokens';

export interface ConditionUnit {
  /** `x NOT IN …`, `x NOT LIKE …`, `x NOT BETWEEN …` (Spider's not_op). */
  not: boolean;
  like: boolean;
  /** Queries in the condition's value: `x IN (SELECT …)`, `x > (SELECT …)`. */
  subqueries: QueryShape[];
}

export interface Conditions {
  units: ConditionUnit[];
  /** Between consecutive units. */
  connectors: Array<'and' | 'or'>;
}

export interface QueryShape {
  selectItems: number;
  /** Select items that start with an aggregate (`count(…)`, `max(…)` …). */
  selectAggregates: number;
  /** Tables and subqueries in FROM. */
  fromUnits: number;
  on: Conditions;
  where: Conditions;
  groupBy: number;
  having: Conditions;
  orderBy: number;
  /** Aggregates at the top of ORDER BY items. */
  orderAggregates: number;
  limit: boolean;
  /** UNION / INTERSECT / EXCEPT and the query on its right. */
  setOp: { op: 'union' | 'intersect' | 'except'; right: QueryShape } | null;
  /** Lower-cased names (identifiers and bare words) in the select list. */
  selectedNames: string[];
  /** Lower-cased names in WHERE and HAVING, subqueries included. */
  filteredNames: string[];
  /** String and number literals in WHERE and HAVING, as written. */
  filteredLiterals: string[];
}

const AGGREGATES = new Set(['max', 'min', 'count', 'sum', 'avg']);
const SET_OPS = new Set(['union', 'intersect', 'except']);
const JOIN_WORDS = new Set(['join', 'left', 'right', 'inner', 'outer', 'cross', 'natural', 'full']);
const NEGATED_OPS = new Set(['in', 'like', 'between', 'glob', 'regexp', 'match']);

interface Reader {
  toks: Token[];
  /** Index of the matching parenthesis for each `(` and `)`. */
  match: Map<number, number>;
}

const word = (t: Token | undefined): string => (t && t.kind === 'word' ? t.text.toLowerCase() : '');

function reader(sql: string): Reader {
  const toks = significant(tokenize(sql));
  const match = new Map<number, number>();
  const open: number[] = [];
  toks.forEach((t, i) => {
    if (t.text === '(') open.push(i);
    else if (t.text === ')' && open.length) {
      const j = open.pop()!;
      match.set(i, j);
      match.set(j, i);
    }
  });
  return { toks, match };
}

/** Indexes in [lo, hi) at parenthesis depth 0 (a parenthesised group is skipped whole). */
function* topLevel(r: Reader, lo: number, hi: number): Generator<number> {
  for (let i = lo; i < hi; i++) {
    yield i;
    if (r.toks[i].text === '(') i = Math.min(r.match.get(i) ?? hi, hi);
  }
}

/** Splits [lo, hi) at top-level commas. */
function commaItems(r: Reader, lo: number, hi: number): Array<[number, number]> {
  const items: Array<[number, number]> = [];
  let start = lo;
  for (const i of topLevel(r, lo, hi)) {
    if (r.toks[i].text === ',') {
      items.push([start, i]);
      start = i + 1;
    }
  }
  if (start < hi) items.push([start, hi]);
  return items.filter(([a, b]) => b > a);
}

function names(r: Reader, lo: number, hi: number): string[] {
  const out: string[] = [];
  for (let i = lo; i < hi; i++) {
    const t = r.toks[i];
    if (t.kind === 'word' || t.kind === 'ident') out.push(identName(t).toLowerCase());
  }
  return out;
}

function literals(r: Reader, lo: number, hi: number): string[] {
  return r.toks.slice(lo, hi).flatMap((t) => (t.kind === 'string' || t.kind === 'number' ? [t.text] : []));
}

/** Subqueries directly inside [lo, hi): `( SELECT …)` groups at depth 0. */
function subqueries(r: Reader, lo: number, hi: number): QueryShape[] {
  const out: QueryShape[] = [];
  for (const i of topLevel(r, lo, hi)) {
    const close = r.match.get(i);
    if (r.toks[i].text === '(' && close !== undefined && /^(select|with)$/.test(word(r.toks[i + 1])))
      out.push(readQuery(r, i + 1, close));
  }
  return out;
}

function conditions(r: Reader, lo: number, hi: number): Conditions {
  const units: ConditionUnit[] = [];
  const connectors: Array<'and' | 'or'> = [];
  let start = lo;
  let between = false;
  let cases = 0;
  const unit = (a: number, b: number): ConditionUnit => {
    let not = false;
    let like = false;
    for (const i of topLevel(r, a, b)) {
      const w = word(r.toks[i]);
      if (w === 'not' && NEGATED_OPS.has(word(r.toks[i + 1]))) not = true;
      if (w === 'like') like = true;
    }
    return { not, like, subqueries: subqueries(r, a, b) };
  };
  for (const i of topLevel(r, lo, hi)) {
    const w = word(r.toks[i]);
    if (w === 'case') cases++;
    else if (w === 'end' && cases > 0) cases--;
    else if (w === 'between') between = true;
    else if ((w === 'and' || w === 'or') && cases === 0) {
      if (w === 'and' && between) {
        between = false;
        continue;
      }
      units.push(unit(start, i));
      connectors.push(w);
      start = i + 1;
    }
  }
  if (start < hi) units.push(unit(start, hi));
  return { units, connectors };
}

const NO_CONDITIONS: Conditions = { units: [], connectors: [] };

/** FROM: units separated by JOIN or commas, ON conditions joined with AND (as process_sql does). */
function readFrom(r: Reader, lo: number, hi: number): { units: number; on: Conditions } {
  let units = lo < hi ? 1 : 0;
  const on: Conditions = { units: [], connectors: [] };
  let onStart = -1;
  const closeOn = (end: number) => {
    if (onStart < 0) return;
    const c = conditions(r, onStart, end);
    if (on.units.length && c.units.length) on.connectors.push('and');
    on.units.push(...c.units);
    on.connectors.push(...c.connectors);
    onStart = -1;
  };
  let previousJoinWord = false;
  for (const i of topLevel(r, lo, hi)) {
    const w = word(r.toks[i]);
    const isJoinWord = JOIN_WORDS.has(w);
    if (r.toks[i].text === ',' || (isJoinWord && !previousJoinWord)) {
      closeOn(i);
      units++;
    } else if (w === 'on') {
      closeOn(i);
      onStart = i + 1;
    }
    previousJoinWord = isJoinWord;
  }
  closeOn(hi);
  return { units, on };
}

/** Where each clause of the query in [lo, hi) starts, at depth 0; `end` is where a set operator begins. */
function clauseStarts(r: Reader, lo: number, hi: number) {
  const at: Record<string, number> = {};
  let end = hi;
  for (const i of topLevel(r, lo, hi)) {
    const w = word(r.toks[i]);
    if (SET_OPS.has(w)) {
      end = i;
      break;
    }
    if (w === 'group' || w === 'order') {
      if (word(r.toks[i + 1]) === 'by' && at[w] === undefined) at[w] = i;
    } else if (['select', 'from', 'where', 'having', 'limit'].includes(w) && at[w] === undefined) at[w] = i;
  }
  return { at, end };
}

/** Skips `WITH [RECURSIVE] name [(cols)] AS [NOT] [MATERIALIZED] (…), …` so the main SELECT is read. */
function afterWith(r: Reader, lo: number, hi: number): number {
  if (word(r.toks[lo]) !== 'with') return lo;
  let i = lo + 1;
  if (word(r.toks[i]) === 'recursive') i++;
  const skipGroup = () => {
    if (r.toks[i]?.text === '(') i = (r.match.get(i) ?? hi) + 1;
  };
  while (i < hi) {
    i++; // the name
    skipGroup(); // its column list
    if (word(r.toks[i]) === 'as') i++;
    while (/^(not|materialized)$/.test(word(r.toks[i]))) i++;
    skipGroup(); // the body
    if (r.toks[i]?.text !== ',') return i;
    i++;
  }
  return hi;
}

export function readQuery(r: Reader, lo: number, hi: number): QueryShape {
  while (r.toks[lo]?.text === '(' && r.match.get(lo) === hi - 1) {
    lo++;
    hi--;
  }
  lo = afterWith(r, lo, hi);
  const { at, end } = clauseStarts(r, lo, hi);
  const order = ['select', 'from', 'where', 'group', 'having', 'order', 'limit'].filter((k) => at[k] !== undefined);
  const span = (k: string): [number, number] | null => {
    if (at[k] === undefined) return null;
    const next = order.map((o) => at[o]).filter((p) => p > at[k]);
    return [at[k] + (k === 'group' || k === 'order' ? 2 : 1), next.length ? Math.min(...next) : end];
  };
  const sel = span('select');
  let items: Array<[number, number]> = [];
  if (sel) {
    let a = sel[0];
    if (/^(distinct|all)$/.test(word(r.toks[a]))) a++;
    items = commaItems(r, a, sel[1]);
  }
  const startsWithAggregate = ([a]: [number, number]) => AGGREGATES.has(word(r.toks[a])) && r.toks[a + 1]?.text === '(';
  const from = span('from');
  const where = span('where');
  const having = span('having');
  const group = span('group');
  const orderBy = span('order');
  const orderItems = orderBy ? commaItems(r, orderBy[0], orderBy[1]) : [];
  const orderAggregates = orderItems.reduce((n, [a, b]) => {
    let k = 0;
    for (const i of topLevel(r, a, b)) if (AGGREGATES.has(word(r.toks[i])) && r.toks[i + 1]?.text === '(') k++;
    return n + Math.min(k, 2);
  }, 0);
  const readFromSpan = from ? readFrom(r, ...from) : { units: 0, on: NO_CONDITIONS };
  const whereC = where ? conditions(r, ...where) : NO_CONDITIONS;
  const havingC = having ? conditions(r, ...having) : NO_CONDITIONS;
  let setOp: QueryShape['setOp'] = null;
  if (end < hi) {
    let next = end + 1;
    if (word(r.toks[next]) === 'all') next++;
    setOp = { op: word(r.toks[end]) as 'union' | 'intersect' | 'except', right: readQuery(r, next, hi) };
  }
  const filters = [where, having].filter((x): x is [number, number] => x !== null);
  return {
    selectItems: items.length,
    selectAggregates: items.filter(startsWithAggregate).length,
    fromUnits: readFromSpan.units,
    on: readFromSpan.on,
    where: whereC,
    groupBy: group ? commaItems(r, ...group).length : 0,
    having: havingC,
    orderBy: orderItems.length,
    orderAggregates,
    limit: at.limit !== undefined,
    setOp,
    selectedNames: sel ? names(r, ...sel) : [],
    filteredNames: filters.flatMap((f) => names(r, ...f)),
    filteredLiterals: filters.flatMap((f) => literals(r, ...f)),
  };
}

/** The shape of a SELECT statement (the first statement when there are several). */
export function queryShape(sql: string): QueryShape {
  const r = reader(sql);
  const semi = r.toks.findIndex((t) => t.text === ';');
  return readQuery(r, 0, semi < 0 ? r.toks.length : semi);
}
