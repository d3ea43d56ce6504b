// The engine's plan of a statement as indented lines (core/dialect: EXPLAIN QUERY PLAN on SQLite,
// EXPLAIN on PostgreSQL), for showing two plans side by side and for telling the model how the
// engine runs a query.

import { dialectOf } from '../dialect/registry';
import type { DialectId } from '../dialect/types';
import type { SqlExecutor } from '../executor';

export async function queryPlan(exec: SqlExecutor, sql: string, dialect?: DialectId): Promise<string[]> {
  const plan = dialectOf(dialect ?? exec.dialect).plan;
  const r = await exec.query(plan.statement(sql.trim().replace(/;\s*$/, '')), { maxRows: 500 });
  return plan.lines(r.rows);
}
