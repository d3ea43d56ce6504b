/**
 * A finished Spider eval folder scored again, to say which wrong answers kept other rows tied at
 * the reference's LIMIT (core/eval/ties.ts) — for runs made before `dowser eval` said so itself.
 * The answers run again on the engine they were asked on (the server with --db-url), the
 * reference on the dataset's SQLite file, as `dowser eval` scores them.
 *
 *   npx tsx scripts/eval-ties.ts <eval-folder> --data ../shared/datasets/spider --questions Q.json [--db-url URL]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QuestionRecord } from '../src/core/eval/eval-record';
import { scoreAnswer } from '../src/core/eval/score-answer';
import { loadDataset } from '../src/cli/eval/datasets';
import { DatabaseSlot, type EvalSlot } from '../src/cli/eval/eval-databases';
import { ServerDatabaseSlot } from '../src/cli/eval/server-databases';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const folder = args[0];
const source = loadDataset({ dataset: 'spider', data: flag('--data')!, questions: flag('--questions') });
const dbUrl = flag('--db-url');
const slot: EvalSlot = dbUrl
  ? new ServerDatabaseSlot(source, { urlTemplate: dbUrl, maxResultRows: 10_000 })
  : new DatabaseSlot(source, { maxResultRows: 10_000 });
const records = readFileSync(join(folder, 'results.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as QuestionRecord);
const scored = records.filter((r) => r.ex === 0 || r.ex === 1);
const ties: string[] = [];
try {
  for (const r of scored.filter((x) => x.ex === 0 && x.finalSql)) {
    const db = await slot.use(r.dbId);
    const s = await scoreAnswer({
      dataset: 'spider',
      goldSql: r.goldSql,
      predSql: r.finalSql,
      query: db.query,
      goldQuery: db.goldQuery,
    });
    if (s.kind === 'scored' && s.ex === 0 && s.tiedAtLimit) ties.push(r.id);
  }
} finally {
  slot.dispose();
}
const right = scored.filter((r) => r.ex === 1).length;
console.log(
  `EX ${((100 * right) / scored.length).toFixed(2)}% over ${scored.length}; ${ties.length} wrong kept other rows tied at the reference's LIMIT (${ties.join(', ') || 'none'}): EX counting them ${((100 * (right + ties.length)) / scored.length).toFixed(2)}%`,
);
