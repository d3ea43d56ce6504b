/**
 * Empty SQLite databases with BIRD's schemas (dev_tables.json: tables, columns, types, keys),
 * so `dowser eval-tools --dataset bird` can measure column search on BIRD's questions and column
 * descriptions though the BIRD databases themselves are not available: the gold SQL is parsed
 * against the schema (or explained by SQLite on the empty database). Value search cannot be
 * measured this way (no rows), only column recall and table linking.
 *
 *   npx tsx scripts/make-bird-schemas.ts [--tables ../shared/datasets/bird/minidev_2024-07/dev_tables.json]
 *                                        [--out .scratch/bird-schemas]
 *   dowser eval-tools --dataset bird --data .scratch/bird-schemas \
 *     --questions ../shared/datasets/bird/minidev_latest/mini_dev_sqlite.json \
 *     --descriptions ../shared/datasets/bird/database_description_minidev
 *
 * Writes <out>/dev_databases/<db>/<db>.sqlite (a git-ignored folder: nothing from ../shared is
 * committed).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { createStatements, type SpiderTables } from '../src/cli/eval/tables-json';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

const specs = JSON.parse(
  readFileSync(arg('tables', '../shared/datasets/bird/minidev_2024-07/dev_tables.json'), 'utf8'),
) as SpiderTables[];
const out = arg('out', '.scratch/bird-schemas');
const SQL = await initSqlJs();
for (const s of specs) {
  const db = new SQL.Database();
  for (const stmt of createStatements(s)) db.run(stmt);
  mkdirSync(join(out, 'dev_databases', s.db_id), { recursive: true });
  writeFileSync(join(out, 'dev_databases', s.db_id, `${s.db_id}.sqlite`), db.export());
  db.close();
}
console.log(`${out}: ${specs.length} empty databases with BIRD's schemas`);
