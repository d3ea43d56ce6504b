// A whole agent run as a file: JSON (re-importable, shown read-only) and Markdown (for people).
// Built from an allow-list of fields, so nothing else a run object might carry (and never an
// API key: runs hold none) ends up in the file.

import { z } from 'zod';
import type { AgentEvent } from '../agent/events';
import type { SqlValue } from '../types';
import { blobToHex } from './values';

export interface ExportableRun {
  question: string;
  hints: string;
  dbName: string;
  provider: string;
  model: string;
  status: string;
  startedAt: number;
  endedAt?: number;
  events: AgentEvent[];
}

export const RUN_FORMAT = 'dowser-run/1';

const cell = (v: SqlValue): unknown => (v instanceof Uint8Array ? blobToHex(v) : typeof v === 'bigint' ? String(v) : v);

/** Events as plain JSON (blobs hex, bigints as digit strings); streamed deltas are left out. */
function exportEvents(events: AgentEvent[]): unknown[] {
  return events
    .filter((e) => e.type !== 'thought_delta')
    .map((e) => (e.type === 'final' ? { ...e, rows: e.rows.map((r) => r.map(cell)) } : e));
}

export function runToJson(run: ExportableRun): string {
  const { question, hints, dbName, provider, model, status, startedAt, endedAt } = run;
  return (
    JSON.stringify(
      {
        format: RUN_FORMAT,
        question,
        hints,
        database: dbName,
        provider,
        model,
        status,
        startedAt,
        endedAt: endedAt ?? null,
        events: exportEvents(run.events),
      },
      null,
      2,
    ) + '\n'
  );
}

const runFile = z.object({
  format: z.literal(RUN_FORMAT),
  question: z.string(),
  hints: z.string(),
  database: z.string(),
  provider: z.string(),
  model: z.string(),
  status: z.string(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  events: z.array(z.object({ type: z.string(), step: z.number(), at: z.number() }).passthrough()),
});

/** Reads an exported run back (to show it read-only); throws with a readable reason. */
export function runFromJson(text: string): ExportableRun {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON.');
  }
  const parsed = runFile.safeParse(data);
  if (!parsed.success)
    throw new Error(
      `This is not a Dowser run file (${parsed.error.issues[0]?.path.join('.') || 'format'}: ${parsed.error.issues[0]?.message}).`,
    );
  const r = parsed.data;
  return {
    question: r.question,
    hints: r.hints,
    dbName: r.database,
    provider: r.provider,
    model: r.model,
    status: r.status,
    startedAt: r.startedAt,
    endedAt: r.endedAt ?? undefined,
    events: r.events as unknown as AgentEvent[],
  };
}

const fence = (text: string, lang = '') => {
  // A fence longer than any backtick run inside, so database text cannot close it.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
};
const mdCell = (v: unknown) =>
  String(v ?? 'NULL')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');

export function runToMarkdown(run: ExportableRun): string {
  const out: string[] = [`# ${run.question.replace(/\r?\n/g, ' ')}`, ''];
  out.push(
    `- Database: ${run.dbName}`,
    `- Model: ${run.provider} · ${run.model}`,
    `- Started: ${new Date(run.startedAt).toISOString()}`,
  );
  if (run.hints) out.push(`- Hints: ${run.hints.replace(/\r?\n/g, ' ')}`);
  const usage = [...run.events].reverse().find((e) => e.type === 'usage');
  if (usage && usage.type === 'usage')
    out.push(
      `- Tokens: ${usage.total.inputTokens} in / ${usage.total.outputTokens} out${usage.total.estimated ? ' (estimated)' : ''}`,
    );
  if (run.endedAt) out.push(`- Time: ${((run.endedAt - run.startedAt) / 1000).toFixed(1)} s`);
  for (const e of run.events) {
    if (e.type === 'plan') {
      out.push('', '## Plan', '');
      e.plan.sub_questions.forEach((q, i) =>
        out.push(`${i + 1}. ${q.text} — ${q.tables.map((t) => `${t.table}(${t.columns.join(', ')})`).join('; ')}`),
      );
    } else if (e.type === 'thought') out.push('', `**Thought:** ${e.text}`);
    else if (e.type === 'action')
      out.push('', `**Action:** \`${e.tool}\``, fence(JSON.stringify(e.args, null, 2), 'json'));
    else if (e.type === 'observation') out.push('', `**Observation** (${e.ms} ms):`, fence(e.text));
    else if (e.type === 'final') {
      out.push('', '## Answer', '', `Verdict: ${e.verdict}`, '');
      if (e.explanation) out.push(e.explanation, '');
      out.push(fence(e.sql, 'sql'), '');
      out.push(`| ${e.columns.map(mdCell).join(' | ')} |`, `|${e.columns.map(() => ' --- |').join('')}`);
      for (const r of e.rows) out.push(`| ${r.map((v) => mdCell(cell(v))).join(' | ')} |`);
      if (e.truncated) out.push('', `(first ${e.rows.length} of ${e.totalRows ?? 'more'} rows)`);
    } else if (e.type === 'error') out.push('', `**Error (${e.code}):** ${e.message}`);
  }
  return out.join('\n') + '\n';
}
