// Confirmed examples: runs the user marked "Correct" (question, plan, final SQL) for one
// database. The most similar ones join the prompt as extra worked examples, marked as the
// user's. Similarity is lexical (stemmed words, weighted by rarity), so it needs no model.

import { z } from 'zod';
import { planInput, type Plan } from '../agent/plan';
import { questionTerms } from '../retrieval/text';

export interface ConfirmedExample {
  id: string;
  question: string;
  plan: Plan | null;
  sql: string;
  savedAt: string;
}

export const EXAMPLES_FORMAT = 'dowser-examples/1';

const exampleSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  plan: planInput.nullable(),
  sql: z.string().min(1),
  savedAt: z.string(),
});

const fileSchema = z.object({
  format: z.literal(EXAMPLES_FORMAT),
  database: z.string(),
  examples: z.array(exampleSchema),
});

export function examplesToJson(database: string, examples: ConfirmedExample[]): string {
  return JSON.stringify({ format: EXAMPLES_FORMAT, database, examples }, null, 2) + '\n';
}

/** Reads an examples file; throws with a readable reason. */
export function examplesFromJson(text: string): ConfirmedExample[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON.');
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success)
    throw new Error(
      `This is not a Dowser examples file (${parsed.error.issues[0]?.path.join('.') || 'format'}: ${parsed.error.issues[0]?.message}).`,
    );
  return parsed.data.examples;
}

/** Imported examples merge by id; a newer copy of the same id replaces the older one. */
export function mergeExamples(current: ConfirmedExample[], incoming: ConfirmedExample[]): ConfirmedExample[] {
  const byId = new Map(current.map((e) => [e.id, e]));
  for (const e of incoming) {
    const old = byId.get(e.id);
    if (!old || old.savedAt <= e.savedAt) byId.set(e.id, e);
  }
  return [...byId.values()].sort((a, b) => b.savedAt.localeCompare(a.savedAt));
}

/**
 * The `k` examples most similar to `question` (score > 0), best first: the sum of the shared
 * terms' rarity (log inverse frequency among the examples), over the geometric size of both.
 */
export function similarExamples(
  question: string,
  examples: ConfirmedExample[],
  k = 2,
): Array<{ example: ConfirmedExample; score: number }> {
  const q = new Set(questionTerms(question));
  if (q.size === 0 || examples.length === 0) return [];
  const terms = examples.map((e) => new Set(questionTerms(e.question)));
  const df = new Map<string, number>();
  for (const t of terms) for (const w of t) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => Math.log(1 + examples.length / (df.get(w) ?? 1));
  return examples
    .map((example, i) => {
      let shared = 0;
      for (const w of terms[i]) if (q.has(w)) shared += idf(w);
      return { example, score: shared / Math.sqrt(Math.max(1, q.size) * Math.max(1, terms[i].size)) };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}
