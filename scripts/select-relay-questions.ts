/**
 * The question set of the relay measurement (decision 060): Spider dev questions not in
 * ../shared/datasets/recorded nor in src/test-fixtures/conversations, stratified by hardness over
 * many databases (seeded, at most 3 per database), plus 20 SParC dev first turns (not Spider
 * questions, at most 2 per database). Writes one Spider-format question file, outside the repo,
 * each entry with `question_id` "spider-<index>" / "sparc-<interaction>" and its hardness:
 *
 *   npx tsx scripts/select-relay-questions.ts /tmp/measure-questions.json [--seed N]
 *
 * Another seed (default 2026, the set of decision 060) draws another set, for a measurement that
 * should not meet questions an earlier run's fixes were made after.
 *   dowser eval --dataset spider --data ../shared/datasets/spider --questions /tmp/measure-questions.json …
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hardnessOfSql } from '../src/core/eval/hardness';
import { mulberry32 } from '../src/core/random';
const spider = JSON.parse(readFileSync('../shared/datasets/spider/dev.json', 'utf8')) as Array<{
  db_id: string;
  question: string;
  query: string;
}>;
const skip = new Set<number>([
  ...readdirSync('../shared/datasets/recorded')
    .filter((f) => f.endsWith('.json'))
    .map((f) => Number(f.match(/\d+/)![0])),
  ...readdirSync('src/test-fixtures/conversations')
    .filter((f) => f.endsWith('.json'))
    .map((f) => Number(f.match(/\d+/)![0])),
]);
const seedAt = process.argv.indexOf('--seed');
const rnd = mulberry32(seedAt > 0 ? Number(process.argv[seedAt + 1]) : 2026);
const want: Record<string, number> = { easy: 10, medium: 13, hard: 10, extra: 9 };
const byLevel = new Map<string, number[]>();
spider.forEach((q, i) => {
  if (q.db_id === 'wta_1' || skip.has(i)) return;
  const h = hardnessOfSql(q.query);
  byLevel.set(h, [...(byLevel.get(h) ?? []), i]);
});
const chosen: number[] = [];
const perDb = new Map<string, number>();
for (const [level, n] of Object.entries(want)) {
  const pool = [...(byLevel.get(level) ?? [])];
  let picked = 0;
  while (picked < n && pool.length) {
    const i = pool.splice(Math.floor(rnd() * pool.length), 1)[0];
    const db = spider[i].db_id;
    if ((perDb.get(db) ?? 0) >= 3) continue;
    perDb.set(db, (perDb.get(db) ?? 0) + 1);
    chosen.push(i);
    picked++;
  }
}
// SParC: first turns of interactions, dev_gold.txt gives each turn's SQL.
const sparc = JSON.parse(readFileSync('../shared/datasets/sparc/dev.json', 'utf8')) as Array<{
  database_id: string;
  interaction: Array<{ utterance: string }>;
}>;
const gold = readFileSync('../shared/datasets/sparc/dev_gold.txt', 'utf8')
  .split(/\n\s*\n/)
  .map((b) =>
    b
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[0]),
  );
const firsts: Array<{ db_id: string; question: string; query: string; n: number }> = [];
const spiderQuestions = new Set(spider.map((q) => q.question.trim().toLowerCase()));
const order = sparc.map((_, i) => i).sort(() => rnd() - 0.5);
const sparcPerDb = new Map<string, number>();
for (const i of order) {
  const it = sparc[i];
  if (it.database_id === 'wta_1' || !gold[i]?.[0]) continue;
  const q = it.interaction[0].utterance;
  if (spiderQuestions.has(q.trim().toLowerCase())) continue;
  if ((sparcPerDb.get(it.database_id) ?? 0) >= 2) continue;
  sparcPerDb.set(it.database_id, (sparcPerDb.get(it.database_id) ?? 0) + 1);
  firsts.push({ db_id: it.database_id, question: q, query: gold[i][0], n: i });
  if (firsts.length === 20) break;
}
const out = [
  ...chosen.map((i) => ({
    db_id: spider[i].db_id,
    question: spider[i].question,
    query: spider[i].query,
    question_id: `spider-${i}`,
    hardness: hardnessOfSql(spider[i].query),
  })),
  ...firsts.map((f) => ({
    db_id: f.db_id,
    question: f.question,
    query: f.query,
    question_id: `sparc-${f.n}`,
    hardness: hardnessOfSql(f.query),
  })),
];
writeFileSync(process.argv[2] ?? '/tmp/measure-questions.json', JSON.stringify(out, null, 1));
const count = (xs: typeof out) =>
  Object.fromEntries(
    [...new Set(xs.map((x) => x.hardness))].map((h) => [h, xs.filter((x) => x.hardness === h).length]),
  );
console.log(
  'spider',
  chosen.length,
  'dbs',
  new Set(chosen.map((i) => spider[i].db_id)).size,
  count(out.slice(0, chosen.length)),
);
console.log('sparc', firsts.length, 'dbs', new Set(firsts.map((f) => f.db_id)).size, count(out.slice(chosen.length)));
console.log('ids', out.map((o) => o.question_id).join(','));
