// The questions `dowser eval` runs: the dataset loader's (datasets.ts: paths, db_id, question,
// evidence, SQL) plus what scoring and the breakdowns need from the same file — BIRD's
// question_id and difficulty, Spider's parsed `sql` for the official hardness — then --ids and
// --limit applied.

import { readFileSync } from 'node:fs';
import { decodeText } from '../../core/descriptions/bird-csv';
import { hardnessOfSql, isSpiderSql, spiderHardness } from '../../core/eval/hardness';
import { UsageError } from '../command';
import { loadDataset, type DatasetSource } from './datasets';
import type { EvalOptions } from './eval-options';

export interface EvalItem {
  /** BIRD's question_id when the file has one, else the 0-based position in the file. */
  id: string;
  index: number;
  dbId: string;
  question: string;
  evidence: string;
  goldSql: string;
  /** Spider hardness (official rules) or BIRD difficulty. */
  difficulty: string | null;
}

export interface EvalQuestions {
  source: DatasetSource;
  /** Every question of the file, then the selection to run. */
  total: number;
  items: EvalItem[];
}

function extraFields(path: string): Record<string, unknown>[] {
  return JSON.parse(decodeText(readFileSync(path))) as Record<string, unknown>[];
}

export function loadEvalQuestions(o: EvalOptions): EvalQuestions {
  const source = loadDataset(o);
  const raw = extraFields(source.questionsFile);
  const all: EvalItem[] = source.questions.map((q) => {
    const r = raw[q.index] ?? {};
    const qid = r.question_id;
    const difficulty =
      o.dataset === 'bird'
        ? typeof r.difficulty === 'string'
          ? r.difficulty
          : null
        : isSpiderSql(r.sql)
          ? spiderHardness(r.sql)
          : hardnessOfSql(q.sql);
    return {
      id: o.dataset === 'bird' && (typeof qid === 'number' || typeof qid === 'string') ? String(qid) : String(q.index),
      index: q.index,
      dbId: q.dbId,
      question: q.question,
      evidence: q.evidence,
      goldSql: q.sql,
      difficulty,
    };
  });
  // One revision of BIRD mini-dev repeats two question_ids: the later copies get their position too.
  const seen = new Set<string>();
  for (const q of all) {
    if (seen.has(q.id)) q.id = `${q.id}@${q.index}`;
    seen.add(q.id);
  }
  let items = all;
  if (o.ids) {
    const byId = new Map(all.map((q) => [q.id, q]));
    const unknown = o.ids.filter((id) => !byId.has(id));
    if (unknown.length)
      throw new UsageError(`--ids: no question with id ${unknown.slice(0, 5).join(', ')} in ${source.questionsFile}`);
    items = o.ids.map((id) => byId.get(id)!);
  }
  if (o.limit) items = items.slice(0, o.limit);
  return { source, total: all.length, items };
}
