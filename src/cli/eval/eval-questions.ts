// The questions `dowser eval` runs: the dataset loader's (datasets.ts: paths, db_id, question,
// evidence, SQL) plus what scoring and the breakdowns need from the same file — BIRD's
// question_id and difficulty, Spider's parsed `sql` for the official hardness — then --ids and
// --limit applied.

import { readFileSync } from 'node:fs';
import { decodeText } from '../../core/descriptions/bird-csv';
import { hardnessOfSql, isSpiderSql, spiderHardness } from '../../core/eval/hardness';
import { UsageError } from '../command';
import { isConversational, loadDataset, type DatasetSource } from './datasets';
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
  /** SParC / CoSQL: the interaction and the turn in it. */
  interaction?: number;
  turn?: number;
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
    if (q.interaction !== undefined)
      return {
        id: `${q.interaction}-${q.turn}`,
        index: q.index,
        dbId: q.dbId,
        question: q.question,
        evidence: '',
        goldSql: q.sql,
        difficulty: hardnessOfSql(q.sql),
        interaction: q.interaction,
        turn: q.turn,
      };
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
  if (isConversational(o.dataset)) return { source, total: all.length, items: pickInteractions(all, o) };
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

/**
 * SParC / CoSQL run whole interactions: `--ids` names interactions (their 0-based position in
 * dev.json) and `--limit N` takes the first N; a turn is never run without the turns before it.
 */
function pickInteractions(all: EvalItem[], o: EvalOptions): EvalItem[] {
  const order = [...new Set(all.map((q) => q.interaction!))];
  let chosen = order;
  if (o.ids) {
    const known = new Set(order.map(String));
    const unknown = o.ids.filter((id) => !known.has(id));
    if (unknown.length)
      throw new UsageError(`--ids: no interaction ${unknown.slice(0, 5).join(', ')} (give interaction numbers)`);
    chosen = o.ids.map(Number);
  }
  if (o.limit) chosen = chosen.slice(0, o.limit);
  const wanted = new Set(chosen);
  const byInteraction = new Map<number, EvalItem[]>();
  for (const q of all)
    if (wanted.has(q.interaction!))
      byInteraction.set(q.interaction!, [...(byInteraction.get(q.interaction!) ?? []), q]);
  return chosen.flatMap((i) => byInteraction.get(i) ?? []);
}
