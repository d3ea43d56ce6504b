// Confirmed examples: runs the user marked "Correct" (question, plan, final SQL) for one
// database, and examples imported from a file. The most similar ones join the prompt as extra
// worked examples. Similarity is lexical (stemmed words, weighted by rarity), so it needs no model.
//
// Imported examples are not trusted: the file must be for this database, each SQL must pass
// the read-only gate on it (checked by the caller, who has the engine), they never replace an
// existing example, they are marked as imported and wait for the person's review before any
// prompt sees them, and their number is capped.

import { z } from 'zod';
import { planInput, type Plan } from '../agent/plan';
import { questionTerms } from '../retrieval/text';

export interface ConfirmedExample {
  id: string;
  question: string;
  plan: Plan | null;
  sql: string;
  savedAt: string;
  /** Where it came from: a run the person marked Correct (the default), or a file. */
  source?: 'user' | 'imported';
  /** Imported examples reach prompts only once the person has looked at them and said so. */
  approved?: boolean;
  /** The file an imported example came from. */
  importedFrom?: string;
}

export const EXAMPLES_FORMAT = 'dowser-examples/1';
/** At most this many examples per database (kept: the newest). */
export const MAX_EXAMPLES = 200;
/** At most this many examples read from one file. */
export const MAX_IMPORT = 100;

const exampleSchema = z.object({
  id: z.string().min(1).max(200),
  question: z.string().min(1).max(2000),
  plan: planInput.nullable(),
  sql: z.string().min(1).max(20_000),
  savedAt: z.string().max(40),
  source: z.enum(['user', 'imported']).optional(),
  approved: z.boolean().optional(),
  importedFrom: z.string().max(300).optional(),
});

// The list is checked loosely first: parsing 100,000 entries one by one is what stalled the page.
const fileSchema = z.object({
  format: z.literal(EXAMPLES_FORMAT),
  database: z.string(),
  examples: z.array(z.unknown()),
});

/** Only the person's own examples are exported: an imported one goes back to its own file. */
export function examplesToJson(database: string, examples: ConfirmedExample[]): string {
  const own = examples
    .filter((e) => e.source !== 'imported')
    .map(({ id, question, plan, sql, savedAt }) => ({ id, question, plan, sql, savedAt }));
  return JSON.stringify({ format: EXAMPLES_FORMAT, database, examples: own }, null, 2) + '\n';
}

export interface ExamplesFile {
  database: string;
  examples: ConfirmedExample[];
  /** Entries past MAX_IMPORT, left unread. */
  skipped: number;
  /** Entries that are not examples (wrong shape), with the first reason. */
  invalid: number;
  firstProblem?: string;
}

/** Reads an examples file (at most MAX_IMPORT entries); throws with a readable reason. */
export function examplesFromJson(text: string): ExamplesFile {
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
  const entries = parsed.data.examples;
  const examples: ConfirmedExample[] = [];
  let invalid = 0;
  let firstProblem: string | undefined;
  entries.slice(0, MAX_IMPORT).forEach((entry, i) => {
    const one = exampleSchema.safeParse(entry);
    if (one.success) examples.push(one.data);
    else {
      invalid++;
      const issue = one.error.issues[0];
      firstProblem ??= `examples.${i}.${issue?.path.join('.')}: ${issue?.message}`;
    }
  });
  return {
    database: parsed.data.database,
    examples,
    skipped: Math.max(0, entries.length - MAX_IMPORT),
    invalid,
    firstProblem,
  };
}

/** The stored list read back: malformed entries dropped, at most MAX_EXAMPLES. */
export function storedExamples(value: unknown): ConfirmedExample[] {
  if (!Array.isArray(value)) return [];
  const out: ConfirmedExample[] = [];
  for (const entry of value.slice(0, MAX_EXAMPLES)) {
    const one = exampleSchema.safeParse(entry);
    if (one.success) out.push(one.data);
  }
  return out;
}

const newestFirst = (a: ConfirmedExample, b: ConfirmedExample) => b.savedAt.localeCompare(a.savedAt);

/** The person's own example saved again (same run id): replaces the older copy. Capped. */
export function mergeExamples(current: ConfirmedExample[], incoming: ConfirmedExample[]): ConfirmedExample[] {
  const byId = new Map(current.map((e) => [e.id, e]));
  for (const e of incoming) {
    const old = byId.get(e.id);
    if (!old || old.savedAt <= e.savedAt) byId.set(e.id, e);
  }
  return [...byId.values()].sort(newestFirst).slice(0, MAX_EXAMPLES);
}

/**
 * Imported examples join the list without replacing anything: an id or a question + SQL already
 * there is skipped, whatever `savedAt` the file claims (a date in the future used to win). They
 * get the import time as `savedAt`, the mark `imported`, and wait for review. Only as many as
 * fit under MAX_EXAMPLES are taken.
 */
export function addImported(
  current: ConfirmedExample[],
  incoming: ConfirmedExample[],
  meta: { fileName: string; now: string },
): { examples: ConfirmedExample[]; added: number; duplicates: number; overCap: number } {
  const ids = new Set(current.map((e) => e.id));
  const same = new Set(current.map((e) => `${e.question}\u0000${e.sql}`));
  const room = Math.max(0, MAX_EXAMPLES - current.length);
  const added: ConfirmedExample[] = [];
  let duplicates = 0;
  let overCap = 0;
  for (const e of incoming) {
    const id = `imported:${e.id}`;
    if (ids.has(id) || ids.has(e.id) || same.has(`${e.question}\u0000${e.sql}`)) {
      duplicates++;
      continue;
    }
    if (added.length >= room) {
      overCap++;
      continue;
    }
    ids.add(id);
    same.add(`${e.question}\u0000${e.sql}`);
    added.push({
      id,
      question: e.question,
      plan: e.plan,
      sql: e.sql,
      savedAt: meta.now,
      source: 'imported',
      approved: false,
      importedFrom: meta.fileName.slice(0, 300),
    });
  }
  return { examples: [...added, ...current].sort(newestFirst), added: added.length, duplicates, overCap };
}

/** Examples a prompt may use: the person's own, and imported ones they approved. */
export function usableExamples(examples: ConfirmedExample[]): ConfirmedExample[] {
  return examples.filter((e) => e.source !== 'imported' || e.approved === true);
}

/**
 * The `k` usable examples most similar to `question` (score > 0), best first: the sum of the
 * shared terms' rarity (log inverse frequency among the examples), over the geometric size of both.
 */
export function similarExamples(
  question: string,
  all: ConfirmedExample[],
  k = 2,
): Array<{ example: ConfirmedExample; score: number }> {
  const examples = usableExamples(all).slice(0, MAX_EXAMPLES);
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
