// The measurement harness of the retrieval tools (issue 3): opens each benchmark database once,
// extracts gold facts from every gold query, asks the tools under test, and scores them.
//
// Definitions (all names compared case-insensitively):
//   searchColumn  the whole question (BIRD: question + evidence unless turned off) is the query;
//                 a list shorter than 10 is filled to 10 with the schema's other columns in schema
//                 order, for every tool set alike (a tool that returns fewer columns gets no
//                 credit and no penalty for it); recall@k = share of gold columns in the top k,
//                 averaged over questions with at least one gold column; all@10 = every gold
//                 column in the top 10. `shortLists` counts the lists that needed filling.
//   searchValue   string literals the gold SQL compares with a text column (`=`, `IN`, `LIKE`
//                 with `%` removed) that occur in that column whatever their case (`SELECT 1 …
//                 WHERE col = ? COLLATE NOCASE`, LIKE literals with their own pattern); others
//                 are excluded and counted.
//                 recall@5 = found as (table, column, value) in the top 5 for the question;
//                 literalHit@5 = the same for the literal itself as the query. Values compare
//                 case-insensitively; a LIKE literal is found by a value containing it.
//   joinPath      gold equality joins `a.x = b.y` between two different tables: share for which
//                 joinOneHop(a, b) holds (a one-hop path with exactly that condition).
//   tableLinking  RES over the tables of the top-10 columns of searchColumn.

import { existsSync, readFileSync } from 'node:fs';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { nodeTokenizerWorkers } from '../../worker/node/spawn';
import { columnKey, MeanAccumulator, recallAtK, res, round4, tablesOf } from '../../core/eval/metrics';
import type {
  DbBreakdown,
  DescriptionMap,
  EvalToolsReport,
  ExcludedLiterals,
  Gold,
  GoldLiteral,
  GoldSourceCounts,
  MetricBlock,
  SkippedDatabase,
  ToolsUnderTest,
  ToolsUnderTestFactory,
  ValueRef,
} from '../../core/eval/types';
import { executorFor, type SqlExecutor } from '../../core/executor';
import type { ColumnRef } from '../../core/retrieval/types';
import { quoteIdent } from '../../core/sql/quote';
import { tokenize } from '../../core/sql/tokens';
import type { Schema } from '../../core/types';
import { isTextColumn } from './baseline-tools';
import { loadDataset, readBirdDescriptions, type DatasetKind, type EvalQuestion } from './datasets';
import { explainColumns, loadExplainCatalog, type ExplainCatalog } from './explain-columns';
import { extractGold, isGoldFailure } from './gold';

export interface EvalToolsOptions {
  dataset: DatasetKind;
  data: string;
  questions?: string;
  databases?: string;
  descriptions?: string;
  /** Only the first N questions of the file. */
  limit?: number;
  /** BIRD: add the evidence to the question when querying (default true). */
  useEvidence?: boolean;
  /** Name of the tool set, recorded in the report. */
  toolsName?: string;
}

export interface EvalProgress {
  phase: 'start' | 'done' | 'skipped';
  db: string;
  dbIndex: number;
  dbCount: number;
  questions: number;
  elapsedMs: number;
}

const K_SMALL = 5;
const K_LARGE = 10;
const MAX_EXAMPLES = 25;

const now = () => performance.now();

/** Accumulators for one database or for the whole run. */
class Scores {
  recall5 = new MeanAccumulator();
  recall10 = new MeanAccumulator();
  all10 = new MeanAccumulator();
  valueQuestion = new MeanAccumulator();
  valueLiteral = new MeanAccumulator();
  joins = new MeanAccumulator();
  res = new MeanAccumulator();
  questions = 0;
  parseFailures = 0;

  merge(o: Scores): void {
    for (const k of ['recall5', 'recall10', 'all10', 'valueQuestion', 'valueLiteral', 'joins', 'res'] as const)
      this[k].merge(o[k]);
    this.questions += o.questions;
    this.parseFailures += o.parseFailures;
  }

  block(): MetricBlock {
    const m = (a: MeanAccumulator) => round4(a.result().value);
    return {
      searchColumn: {
        recallAt5: m(this.recall5),
        recallAt10: m(this.recall10),
        allAt10: m(this.all10),
        n: this.recall5.n,
      },
      searchValue: { recallAt5: m(this.valueQuestion), literalHitAt5: m(this.valueLiteral), n: this.valueQuestion.n },
      joinPath: { agreement: m(this.joins), n: this.joins.n },
      tableLinking: { res: m(this.res), n: this.res.n },
    };
  }
}

/** True when a SearchValue hit is the gold literal: same column, same value (LIKE: contains it). */
export function valueHitMatches(hit: ValueRef, lit: GoldLiteral): boolean {
  if (columnKey(hit) !== columnKey(lit)) return false;
  const v = String(hit.value).toLowerCase();
  const want = lit.value.toLowerCase();
  return lit.op === 'LIKE' ? v.includes(want) : v === want;
}

/** A `*` that expands to columns (`SELECT *`, `t.*`), not count(*) or a product. */
export function selectsStar(sql: string): boolean {
  const tokens = tokenize(sql).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
  return tokens.some((t, i) => t.text === '*' && /^(select|distinct|all|,|\.)$/i.test(tokens[i - 1]?.text ?? ''));
}

/** The ranked list, then the schema's other columns in schema order, up to k. */
export function fillToK(ranked: ColumnRef[], schema: Schema, k: number): ColumnRef[] {
  const out = ranked.slice(0, k);
  const seen = new Set(out.map(columnKey));
  for (const t of schema.tables) {
    for (const c of t.columns) {
      if (out.length >= k) return out;
      const ref = { table: t.name, column: c.name };
      if (!seen.has(columnKey(ref))) {
        seen.add(columnKey(ref));
        out.push(ref);
      }
    }
  }
  return out;
}

async function occurs(exec: SqlExecutor, lit: GoldLiteral): Promise<boolean> {
  // Case-insensitive: gold SQL often spells a value in another case than the data ('france').
  const where = lit.op === 'LIKE' ? `${quoteIdent(lit.column)} LIKE ?` : `${quoteIdent(lit.column)} = ? COLLATE NOCASE`;
  const r = await exec.query(`SELECT 1 FROM ${quoteIdent(lit.table)} WHERE ${where} LIMIT 1`, {
    params: [lit.op === 'LIKE' ? (lit.pattern ?? `%${lit.value}%`) : lit.value],
    maxRows: 1,
  });
  return r.rows.length > 0;
}

function groupByDb(questions: EvalQuestion[]): Map<string, EvalQuestion[]> {
  const out = new Map<string, EvalQuestion[]>();
  for (const q of questions) {
    const list = out.get(q.dbId) ?? [];
    list.push(q);
    out.set(q.dbId, list);
  }
  return out;
}

interface RunState {
  excluded: ExcludedLiterals;
  sources: GoldSourceCounts;
  parseFailureExamples: EvalToolsReport['parseFailureExamples'];
  toolErrors: number;
  toolErrorExamples: string[];
  /** searchColumn lists shorter than 10 (filled before scoring). */
  shortLists: number;
  crossCheck: EvalToolsReport['goldCrossCheck'];
}

/** Calls a tool; a throw is counted and treated as an empty answer. */
async function guarded<T>(state: RunState, what: string, fallback: T, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    state.toolErrors++;
    if (state.toolErrorExamples.length < MAX_EXAMPLES)
      state.toolErrorExamples.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    return fallback;
  }
}

async function scoreQuestion(
  db: string,
  query: string,
  gold: Gold,
  tools: ToolsUnderTest,
  exec: SqlExecutor,
  schema: Schema,
  scores: Scores,
  state: RunState,
): Promise<void> {
  const returned = await guarded<ColumnRef[]>(state, 'searchColumn', [], () => tools.searchColumn(query, K_LARGE));
  if (returned.length < K_LARGE) state.shortLists++;
  const ranked = fillToK(returned, schema, K_LARGE);
  scores.recall5.add(recallAtK(gold.columns, ranked, K_SMALL));
  const r10 = recallAtK(gold.columns, ranked, K_LARGE);
  scores.recall10.add(r10);
  scores.all10.add(r10 === null ? null : r10 === 1 ? 1 : 0);
  scores.res.add(res(gold.tables, tablesOf(ranked.slice(0, K_LARGE))));

  let questionHits: ValueRef[] | null = null;
  for (const lit of gold.literals) {
    const table = schema.tables.find((t) => t.name.toLowerCase() === lit.table.toLowerCase());
    const column = table?.columns.find((c) => c.name.toLowerCase() === lit.column.toLowerCase());
    if (!column || !isTextColumn(column)) {
      state.excluded.notTextColumn++;
      if (state.excluded.examples.length < MAX_EXAMPLES)
        state.excluded.examples.push({ db, ...lit, reason: 'not a text column' });
      continue;
    }
    if (!(await occurs(exec, lit))) {
      state.excluded.notInColumn++;
      if (state.excluded.examples.length < MAX_EXAMPLES)
        state.excluded.examples.push({ db, ...lit, reason: 'not in column' });
      continue;
    }
    questionHits ??= await guarded<ValueRef[]>(state, 'searchValue', [], () => tools.searchValue(query, K_SMALL));
    const literalHits = await guarded<ValueRef[]>(state, 'searchValue', [], () =>
      tools.searchValue(lit.value, K_SMALL),
    );
    scores.valueQuestion.add(questionHits.slice(0, K_SMALL).some((h) => valueHitMatches(h, lit)) ? 1 : 0);
    scores.valueLiteral.add(literalHits.slice(0, K_SMALL).some((h) => valueHitMatches(h, lit)) ? 1 : 0);
  }

  for (const j of gold.joins) {
    const ok = await guarded(state, 'joinOneHop', false, () => tools.joinOneHop(j.a, j.b));
    scores.joins.add(ok ? 1 : 0);
  }
}

async function crossCheck(
  q: EvalQuestion,
  gold: Gold,
  exec: SqlExecutor,
  catalog: ExplainCatalog,
  state: RunState,
): Promise<void> {
  if (gold.source === 'explain' || selectsStar(q.sql)) return;
  let explained;
  try {
    explained = await explainColumns(q.sql, exec, catalog);
  } catch {
    return;
  }
  state.crossCheck.compared++;
  const mine = new Set(gold.columns.map(columnKey));
  const extra = explained.columns.filter((c) => !mine.has(columnKey(c)));
  if (!extra.length) return;
  state.crossCheck.explainOnly++;
  if (state.crossCheck.examples.length < MAX_EXAMPLES) {
    state.crossCheck.examples.push({ db: q.dbId, sql: q.sql, columns: extra.map((c) => `${c.table}.${c.column}`) });
  }
}

/**
 * Runs the evaluation: every question of the dataset (or the first `limit`), one database open
 * at a time, tools from `factory`. Resolves to the report; `onProgress` hears about each database.
 */
export async function runEvalTools(
  options: EvalToolsOptions,
  factory: ToolsUnderTestFactory,
  onProgress?: (p: EvalProgress) => void,
): Promise<EvalToolsReport> {
  const t0 = now();
  const source = loadDataset(options);
  const questions = options.limit ? source.questions.slice(0, options.limit) : source.questions;
  const groups = groupByDb(questions);
  const useEvidence = options.useEvidence ?? true;

  const total = new Scores();
  const perDb: Record<string, DbBreakdown> = {};
  const skipped: SkippedDatabase[] = [];
  const state: RunState = {
    excluded: { notTextColumn: 0, notInColumn: 0, examples: [] },
    sources: { parser: 0, parserRewritten: 0, explain: 0 },
    parseFailureExamples: [],
    toolErrors: 0,
    toolErrorExamples: [],
    shortLists: 0,
    crossCheck: { compared: 0, explainOnly: 0, examples: [] },
  };
  let mode: ToolsUnderTest['mode'] | null = null;
  let engine: SqljsEngine | null = null;

  let dbIndex = 0;
  for (const [db, list] of groups) {
    dbIndex++;
    const tDb = now();
    const path = source.databasePath(db);
    const progress = (phase: EvalProgress['phase']) =>
      onProgress?.({
        phase,
        db,
        dbIndex,
        dbCount: groups.size,
        questions: list.length,
        elapsedMs: Math.round(now() - tDb),
      });
    if (!existsSync(path)) {
      skipped.push({ db, questions: list.length, reason: 'database file missing' });
      progress('skipped');
      continue;
    }
    engine ??= await createNodeEngine({ tokenizerWorkers: nodeTokenizerWorkers() });
    try {
      await engine.open({ id: db, name: `${db}.sqlite`, bytes: readFileSync(path) });
    } catch (e) {
      skipped.push({
        db,
        questions: list.length,
        reason: `cannot open: ${e instanceof Error ? e.message : String(e)}`,
      });
      progress('skipped');
      continue;
    }
    progress('start');
    const scores = new Scores();
    let tools: ToolsUnderTest | null = null;
    try {
      const exec = executorFor(engine, db);
      const schema = await engine.introspect(db);
      const descDir = source.descriptionsDir(db);
      const descriptions: DescriptionMap | undefined = descDir ? readBirdDescriptions(descDir) : undefined;
      const catalog = await loadExplainCatalog(exec);
      tools = await factory({ name: db, exec, schema, ...(descriptions ? { descriptions } : {}) });
      mode ??= tools.mode;
      for (const q of list) {
        scores.questions++;
        const gold = await extractGold(q.sql, schema, exec, { explainCatalog: catalog });
        if (isGoldFailure(gold)) {
          scores.parseFailures++;
          if (state.parseFailureExamples.length < MAX_EXAMPLES)
            state.parseFailureExamples.push({ db, sql: q.sql, reason: gold.failure });
          continue;
        }
        state.sources[
          gold.source === 'parser' ? 'parser' : gold.source === 'parser-rewritten' ? 'parserRewritten' : 'explain'
        ]++;
        await crossCheck(q, gold, exec, catalog, state);
        const query = useEvidence && q.evidence ? `${q.question} ${q.evidence}` : q.question;
        await scoreQuestion(db, query, gold, tools, exec, schema, scores, state);
      }
    } finally {
      tools?.dispose?.();
      await engine.close(db);
    }
    const elapsedMs = Math.round(now() - tDb);
    perDb[db] = { questions: scores.questions, parseFailures: scores.parseFailures, elapsedMs, ...scores.block() };
    total.merge(scores);
    progress('done');
  }

  return {
    mode: mode ?? 'lexical',
    tools: options.toolsName ?? 'unnamed',
    dataset: options.dataset,
    questionsFile: source.questionsFile,
    questions: total.questions,
    ...total.block(),
    parseFailures: total.parseFailures,
    excludedLiterals: state.excluded,
    skipped: { questions: skipped.reduce((n, s) => n + s.questions, 0), databases: skipped },
    goldSources: state.sources,
    goldCrossCheck: state.crossCheck,
    parseFailureExamples: state.parseFailureExamples,
    toolErrors: state.toolErrors,
    shortColumnLists: state.shortLists,
    toolErrorExamples: state.toolErrorExamples,
    perDb,
    elapsedMs: Math.round(now() - t0),
  };
}
