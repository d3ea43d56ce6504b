// EXPLAIN QUERY PLAN as indented lines (SQLite's own tree: id, parent, detail), for showing two
// plans side by side and for telling the model how SQLite runs a query.

import type { SqlExecutor } from '../executor';

export async function queryPlan(exec: SqlExecutor, sql: string): Promise<string[]> {
  const r = await exec.query(`EXPLAIN QUERY PLAN ${sql.trim().replace(/;\s*$/, '')}`, { maxRows: 500 });
  const depth = new Map<number, number>();
  return r.rows.map((row) => {
    const [id, parent, , detail] = row;
    const d = (depth.get(Number(parent)) ?? -1) + 1;
    depth.set(Number(id), d);
    return `${'  '.repeat(d)}${String(detail)}`;
  });
}
