// Spider's hardness levels (easy, medium, hard, extra) by the official rules: `eval_hardness` of
// the Spider evaluation scripts, counting components of the gold query as parsed by process_sql.
// Spider's question files carry that parse (`sql`), so the official level comes straight from it,
// quirks included: `count_agg` over WHERE conditions counts NOT conditions (a condition's first
// field is its not-flag), and over HAVING it also counts every AND/OR between conditions (a
// string's first character is never 0). For files without a parse, the same counts are taken from
// the token-level reading of the SQL (sql-shape.ts); how often that agrees is measured in
// hardness.test.ts on Spider dev.

import { queryShape, type Conditions, type QueryShape } from './sql-shape';

export type Hardness = 'easy' | 'medium' | 'hard' | 'extra';
export const HARDNESS_LEVELS: readonly Hardness[] = ['easy', 'medium', 'hard', 'extra'];

/** The part of process_sql's dict the rules read. */
export interface SpiderSql {
  select: [unknown, unknown[][]];
  from: { table_units: unknown[]; conds: unknown[] };
  where: unknown[];
  groupBy: unknown[][];
  having: unknown[];
  orderBy: [] | [string, unknown[][]];
  limit: unknown;
  intersect: SpiderSql | null;
  union: SpiderSql | null;
  except: SpiderSql | null;
}

interface Counts {
  component1: number;
  component2: number;
  others: number;
}

/** Python's `unit[0] != 0` for a list (its first item) or a string (its first character). */
const hasAgg = (unit: unknown): boolean => {
  const first = typeof unit === 'string' ? unit[0] : Array.isArray(unit) ? (unit[0] as unknown) : undefined;
  if (typeof first === 'boolean') return first;
  return first !== 0;
};
const countAgg = (units: unknown[]) => units.filter(hasAgg).length;
const evens = <T>(xs: T[]) => xs.filter((_, i) => i % 2 === 0);
const odds = <T>(xs: T[]) => xs.filter((_, i) => i % 2 === 1);
const LIKE = 9; // WHERE_OPS.index('like')

function dictCounts(sql: SpiderSql): Counts {
  const condUnits = [...evens(sql.from.conds), ...evens(sql.where), ...evens(sql.having)] as unknown[][];
  const connectors = [...odds(sql.from.conds), ...odds(sql.where), ...odds(sql.having)];
  let component1 = 0;
  if (sql.where.length) component1++;
  if (sql.groupBy.length) component1++;
  if (sql.orderBy.length) component1++;
  if (sql.limit !== null && sql.limit !== undefined) component1++;
  if (sql.from.table_units.length) component1 += sql.from.table_units.length - 1;
  component1 += connectors.filter((c) => c === 'or').length;
  component1 += condUnits.filter((c) => c[1] === LIKE).length;

  let component2 = 0;
  for (const c of condUnits) {
    if (isDict(c[3])) component2++;
    if (isDict(c[4])) component2++;
  }
  for (const op of [sql.intersect, sql.except, sql.union]) if (op) component2++;

  let agg = countAgg(sql.select[1]) + countAgg(evens(sql.where)) + countAgg(sql.groupBy);
  if (sql.orderBy.length) {
    const valUnits = sql.orderBy[1] ?? [];
    agg += countAgg([...valUnits.map((u) => u[1]).filter(Boolean), ...valUnits.map((u) => u[2]).filter(Boolean)]);
  }
  agg += countAgg(sql.having);
  let others = 0;
  if (agg > 1) others++;
  if (sql.select[1].length > 1) others++;
  if (sql.where.length > 1) others++;
  if (sql.groupBy.length > 1) others++;
  return { component1, component2, others };
}

const isDict = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);

const length = (c: Conditions) => c.units.length + c.connectors.length;

function shapeCounts(q: QueryShape): Counts {
  const all = [q.on, q.where, q.having];
  let component1 = 0;
  if (q.where.units.length) component1++;
  if (q.groupBy) component1++;
  if (q.orderBy) component1++;
  if (q.limit) component1++;
  if (q.fromUnits) component1 += q.fromUnits - 1;
  component1 += all.reduce((n, c) => n + c.connectors.filter((x) => x === 'or').length, 0);
  component1 += all.reduce((n, c) => n + c.units.filter((u) => u.like).length, 0);

  let component2 = all.reduce((n, c) => n + c.units.reduce((m, u) => m + u.subqueries.length, 0), 0);
  if (q.setOp) component2++;

  const notUnits = (c: Conditions) => c.units.filter((u) => u.not).length;
  const agg =
    q.selectAggregates + notUnits(q.where) + q.orderAggregates + notUnits(q.having) + q.having.connectors.length;
  let others = 0;
  if (agg > 1) others++;
  if (q.selectItems > 1) others++;
  if (length(q.where) > 1) others++;
  if (q.groupBy > 1) others++;
  return { component1, component2, others };
}

/** `Evaluator.eval_hardness`. */
function level({ component1: c1, component2: c2, others }: Counts): Hardness {
  if (c1 <= 1 && others === 0 && c2 === 0) return 'easy';
  if ((others <= 2 && c1 <= 1 && c2 === 0) || (c1 <= 2 && others < 2 && c2 === 0)) return 'medium';
  if (
    (others > 2 && c1 <= 2 && c2 === 0) ||
    (c1 > 2 && c1 <= 3 && others <= 2 && c2 === 0) ||
    (c1 <= 1 && others === 0 && c2 <= 1)
  )
    return 'hard';
  return 'extra';
}

/** The official level from a Spider question's parsed `sql`. */
export function spiderHardness(sql: SpiderSql): Hardness {
  return level(dictCounts(sql));
}

/** The level from SQL text (for question files without a parse). */
export function hardnessOfSql(sql: string): Hardness {
  return level(shapeCounts(queryShape(sql)));
}

/** True when `value` looks like process_sql's dict (a Spider file's `sql` field). */
export function isSpiderSql(value: unknown): value is SpiderSql {
  if (!isDict(value)) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.select) && isDict(v.from) && Array.isArray(v.where) && Array.isArray(v.having);
}
