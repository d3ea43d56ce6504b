// Link recall on a benchmark (issue 13): for each question, the tables and columns the gold SQL
// uses (dowser eval-tools' gold extraction: parser, EXPLAIN fallback) against what Link offers
// with the structure linker alone (no model; core/link/schema-link.ts). Linker + PreSQL needs a
// real model and is not measured here: a scripted or gold-fed model would only echo the gold SQL.
//
//   npx tsx scripts/measure-link.ts ../shared/datasets/spider [limit]
//
// Recall = share of gold tables (columns) among the linked ones, averaged over questions with at
// least one; precision = share of linked ones that are gold; all = every gold table linked.

import { existsSync, readFileSync } from 'node:fs';
import { createNodeEngine } from '../src/adapters/sqljs/node';
import { loadDataset } from '../src/cli/eval/datasets';
import { extractGold, isGoldFailure } from '../src/cli/eval/gold';
import { executorFor } from '../src/core/executor';
import { linkSchema } from '../src/core/link/schema-link';
import { buildToolbox } from '../src/core/tools/toolbox';

const [data, limitArg] = process.argv.slice(2);
if (!data) throw new Error('usage: measure-link.ts <spider dir> [limit]');
const source = loadDataset({ dataset: 'spider', data });
const questions = source.questions.slice(0, limitArg ? Number(limitArg) : undefined);
const byDb = new Map<string, typeof questions>();
for (const q of questions) byDb.set(q.dbId, [...(byDb.get(q.dbId) ?? []), q]);

const sum = {
  n: 0,
  tRecall: 0,
  tPrecision: 0,
  tAll: 0,
  cN: 0,
  cRecall: 0,
  cPrecision: 0,
  linkedTables: 0,
  failures: 0,
};
const t0 = Date.now();
let skipped = 0;
for (const [db, list] of byDb) {
  // Spider's dev set names databases its download does not hold (eval-tools skips them too).
  if (!existsSync(source.databasePath(db))) {
    skipped += list.length;
    continue;
  }
  const engine = await createNodeEngine();
  await engine.open({ id: db, name: db, bytes: readFileSync(source.databasePath(db)) });
  const schema = await engine.introspect(db);
  const exec = executorFor(engine, db);
  const toolbox = await buildToolbox(exec, schema);
  for (const q of list) {
    const gold = await extractGold(q.sql, schema, exec);
    if (isGoldFailure(gold)) {
      sum.failures++;
      continue;
    }
    const linked = linkSchema({ schema, links: toolbox.link(q.question) });
    const lt = new Set(linked.tables.map((t) => t.table.toLowerCase()));
    const lc = new Set(linked.tables.flatMap((t) => t.columns.map((c) => `${t.table}.${c.column}`.toLowerCase())));
    const gt = new Set(gold.tables.map((t) => t.toLowerCase()));
    const gc = new Set(gold.columns.map((c) => `${c.table}.${c.column}`.toLowerCase()));
    if (gt.size === 0) continue;
    sum.n++;
    const hitT = [...gt].filter((t) => lt.has(t)).length;
    sum.tRecall += hitT / gt.size;
    sum.tPrecision += lt.size ? [...lt].filter((t) => gt.has(t)).length / lt.size : 0;
    sum.tAll += hitT === gt.size ? 1 : 0;
    sum.linkedTables += lt.size;
    if (gc.size) {
      sum.cN++;
      sum.cRecall += [...gc].filter((c) => lc.has(c)).length / gc.size;
      sum.cPrecision += lc.size ? [...lc].filter((c) => gc.has(c)).length / lc.size : 0;
    }
  }
  engine.close(db);
}
const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(1)}%`;
console.log(
  JSON.stringify(
    {
      questions: questions.length,
      skippedNoDatabase: skipped,
      scored: sum.n,
      goldFailures: sum.failures,
      tableRecall: pct(sum.tRecall, sum.n),
      tablePrecision: pct(sum.tPrecision, sum.n),
      allGoldTablesLinked: pct(sum.tAll, sum.n),
      meanLinkedTables: (sum.linkedTables / sum.n).toFixed(2),
      columnRecall: pct(sum.cRecall, sum.cN),
      columnPrecision: pct(sum.cPrecision, sum.cN),
      seconds: Math.round((Date.now() - t0) / 1000),
    },
    null,
    2,
  ),
);
