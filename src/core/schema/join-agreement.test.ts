// Do the join paths agree with how people joined tables in Spider dev's gold SQL? For each
// `JOIN … ON T1.x = T2.y`, FindShortestPath(a.x, b.y) should return a one-hop path on exactly
// that pair. Declared keys alone cover about 0.937 of those joins; inferred keys should close most
// of the rest. Skipped when ../shared/datasets/spider is not there.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { executorFor } from '../executor';
import type { JoinEdge } from '../retrieval/types';
import { inferForeignKeys } from './infer-keys';
import { buildJoinGraph, type JoinGraph, shortestJoinPaths } from './join-graph';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const spiderRoot = resolve(repoRoot, '../shared/datasets/spider');
const exists = existsSync(join(spiderRoot, 'dev.json')) && existsSync(join(spiderRoot, 'database'));
if (!exists) console.warn(`join agreement skipped: ${spiderRoot} (Spider dev) not found`);

interface JoinCondition {
  db: string;
  left: { table: string; column: string };
  right: { table: string; column: string };
}

// Spider writes joins as `FROM t AS T1 JOIN u AS T2 ON T1.x = T2.y`; aliases restart at each FROM
// (subqueries reuse T1, T2). A deliberately small reader: the full gold-SQL parser lives elsewhere.
const TOKENS = /\bFROM\s+(\w+)\s+AS\s+(T\d+)|\bJOIN\s+(\w+)\s+AS\s+(T\d+)|\bON\s+(T\d+)\.(\w+)\s*=\s*(T\d+)\.(\w+)/gi;

function joinConditions(db: string, sql: string): JoinCondition[] {
  const out: JoinCondition[] = [];
  let aliases = new Map<string, string>();
  for (const m of sql.matchAll(TOKENS)) {
    if (m[1]) aliases = new Map([[m[2].toUpperCase(), m[1]]]);
    else if (m[3]) aliases.set(m[4].toUpperCase(), m[3]);
    else {
      const a = aliases.get(m[5].toUpperCase());
      const b = aliases.get(m[7].toUpperCase());
      if (a && b) out.push({ db, left: { table: a, column: m[6] }, right: { table: b, column: m[8] } });
    }
  }
  return out;
}

const pairKey = (t1: string, c1: string, t2: string, c2: string) =>
  [`${t1}.${c1}`.toLowerCase(), `${t2}.${c2}`.toLowerCase()].sort().join(' = ');
const edgeKey = (e: JoinEdge) =>
  e.fromColumns.length === 1 ? pairKey(e.fromTable, e.fromColumns[0], e.toTable, e.toColumns[0]) : '';

/** [any returned path agrees, the first one does] */
function agrees(graph: JoinGraph, c: JoinCondition): [boolean, boolean] {
  const result = shortestJoinPaths(graph, `${c.left.table}.${c.left.column}`, `${c.right.table}.${c.right.column}`);
  if (!result.ok) return [false, false];
  const wanted = pairKey(c.left.table, c.left.column, c.right.table, c.right.column);
  const candidates = result.paths.length > 0 && result.paths[0].edges.length === 0 ? result.selfJoins : result.paths;
  const hits = candidates.map((p) => p.edges.length === 1 && edgeKey(p.edges[0]) === wanted);
  return [hits.some(Boolean), hits[0] === true];
}

describe.skipIf(!exists)('join paths agree with Spider dev gold joins', () => {
  it('agrees on at least 0.9 of the gold join conditions with inferred keys', async () => {
    const dbDir = join(spiderRoot, 'database');
    const questions: Array<{ db_id: string; query: string }> = JSON.parse(
      readFileSync(join(spiderRoot, 'dev.json'), 'utf8'),
    );
    const engine = await createNodeEngine();
    const tally = {
      conditions: 0,
      declaredAny: 0,
      declaredFirst: 0,
      inferredAny: 0,
      inferredFirst: 0,
      inferredKeys: 0,
    };
    const misses: string[] = [];
    for (const db of readdirSync(dbDir).sort()) {
      const file = readdirSync(join(dbDir, db)).find((f) => f.endsWith('.sqlite'));
      if (!file) continue;
      await engine.open({ id: db, name: file, bytes: readFileSync(join(dbDir, db, file)) });
      try {
        const schema = await engine.introspect(db);
        const inferred = await inferForeignKeys(schema, executorFor(engine, db));
        tally.inferredKeys += inferred.length;
        const declaredOnly = buildJoinGraph(schema);
        const withInferred = buildJoinGraph(schema, inferred);
        for (const c of questions.filter((q) => q.db_id === db).flatMap((q) => joinConditions(db, q.query))) {
          tally.conditions++;
          const [dAny, dFirst] = agrees(declaredOnly, c);
          const [iAny, iFirst] = agrees(withInferred, c);
          tally.declaredAny += Number(dAny);
          tally.declaredFirst += Number(dFirst);
          tally.inferredAny += Number(iAny);
          tally.inferredFirst += Number(iFirst);
          if (!iAny) misses.push(`${db}: ${c.left.table}.${c.left.column} = ${c.right.table}.${c.right.column}`);
        }
      } finally {
        await engine.close(db);
      }
    }
    const share = (n: number) => (n / tally.conditions).toFixed(3);
    console.log(
      `Spider dev gold join conditions: ${tally.conditions}; agreement declared keys only ${share(tally.declaredAny)} ` +
        `(first path ${share(tally.declaredFirst)}), with ${tally.inferredKeys} inferred keys ${share(tally.inferredAny)} ` +
        `(first path ${share(tally.inferredFirst)}). Still missed: ${[...new Set(misses)].join('; ') || 'none'}`,
    );
    expect(tally.conditions).toBeGreaterThan(400);
    expect(tally.inferredAny / tally.conditions).toBeGreaterThanOrEqual(0.9);
  });
});
