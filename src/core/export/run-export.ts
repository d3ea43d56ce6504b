// A whole agent run as a file: JSON (re-importable, shown read-only) and Markdown (for people).
// Built from an allow-list of fields, so nothing else a run object might carry (and never an
// API key: runs hold none) ends up in the file. The JSON's shape is `runFile` (run-file.ts):
// the export is typed by it and the import parsed with it.

import type { AgentEvent } from '../agent/events';
import { chartData } from '../charts/chart-data';
import { chooseChart } from '../charts/choose-chart';
import { boundedJson } from '../format/bounded-json';
import type { SqlValue } from '../types';
import { asText, mdBlock, mdCell, mdFence, mdInline } from './markdown-text';
import { RUN_FORMAT, runFile, type RunFile, type RunFileEvent } from './run-file';
import { blobToHex } from './values';

export { RUN_FORMAT };

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
  /** The conversation's turns before this one, oldest first. */
  earlier?: ExportableTurn[];
}

export type ExportableTurn = Pick<ExportableRun, 'question' | 'hints' | 'status' | 'startedAt' | 'endedAt' | 'events'>;

// Every event type the agent emits has a place in the file's schema (compile-time check).
type Unlisted = Exclude<AgentEvent['type'], RunFileEvent['type']>;
const everyEventListed: [Unlisted] extends [never] ? true : false = true;
void everyEventListed;

const cell = (v: SqlValue): string | number | null =>
  v instanceof Uint8Array ? blobToHex(v) : typeof v === 'bigint' ? String(v) : v;

/** Events as plain JSON (blobs hex, bigints as digit strings); streamed deltas are left out. */
function exportEvents(events: AgentEvent[]): RunFileEvent[] {
  return events
    .filter((e) => e.type !== 'thought_delta')
    .map((e) => (e.type === 'final' || e.type === 'step_preview' ? { ...e, rows: e.rows.map((r) => r.map(cell)) } : e));
}

export function runToJson(run: ExportableRun): string {
  const { question, hints, dbName, provider, model, status, startedAt, endedAt } = run;
  const file: RunFile = {
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
    ...(run.earlier?.length
      ? {
          thread: run.earlier.map((t) => ({
            question: t.question,
            hints: t.hints,
            status: t.status,
            startedAt: t.startedAt,
            endedAt: t.endedAt ?? null,
            events: exportEvents(t.events),
          })),
        }
      : {}),
  };
  return JSON.stringify(file, null, 2) + '\n';
}

/** Reads an exported run back (to show it read-only); throws with a readable reason. */
export function runFromJson(text: string): ExportableRun {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON.');
  }
  const parsed = runFile.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'format';
    throw new Error(`This is not a Dowser run file, or it is damaged (${where}: ${issue?.message}).`);
  }
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
    // Cells are JSON values here (hex, digit strings): what the page shows of an opened run.
    events: r.events as AgentEvent[],
    ...(r.thread?.length
      ? {
          earlier: r.thread.map((t) => ({
            question: t.question,
            hints: t.hints,
            status: t.status,
            startedAt: t.startedAt,
            endedAt: t.endedAt ?? undefined,
            events: t.events as AgentEvent[],
          })),
        }
      : {}),
  };
}

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const time = (ms: unknown) => {
  const d = new Date(typeof ms === 'number' ? ms : NaN);
  return Number.isNaN(d.getTime()) ? 'unknown' : d.toISOString();
};
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

type Loose = Record<string, unknown>;

/**
 * The run for people. Total on any run object, checked or not (a history entry of an older
 * build, a hand-edited file): a missing or odd field is written as empty, never thrown on.
 * Every text goes through the Markdown escapes of markdown-text.ts.
 */
export function runToMarkdown(run: ExportableRun): string {
  const out: string[] = [`# ${mdInline(run.question) || 'Run'}`, ''];
  out.push(
    `- Database: ${mdInline(run.dbName)}`,
    `- Model: ${mdInline(run.provider)} · ${mdInline(run.model)}`,
    `- Started: ${time(run.startedAt)}`,
  );
  if (asText(run.hints)) out.push(`- Hints: ${mdInline(run.hints)}`);
  const events = list<Loose>(run.events).filter((e) => e && typeof e === 'object');
  const usage = [...events].reverse().find((e) => e.type === 'usage');
  const total = usage?.total as Loose | undefined;
  if (total)
    out.push(
      `- Tokens: ${num(total.inputTokens)} in / ${num(total.outputTokens)} out${total.estimated ? ' (estimated)' : ''}`,
    );
  const whys = events.flatMap((e) => (e.type === 'usage' && typeof e.why === 'string' ? [e.why] : []));
  if (whys.length) out.push(`- Model requests: ${whys.map((w, i) => `${i + 1}. ${mdInline(w)}`).join('; ')}`);
  if (typeof run.endedAt === 'number') out.push(`- Time: ${((run.endedAt - num(run.startedAt)) / 1000).toFixed(1)} s`);
  // A follow-up: the conversation before it, each turn with its steps and answer.
  const earlier = list<ExportableTurn>(run.earlier);
  if (earlier.length) {
    out.push('', '## Earlier in this conversation');
    earlier.forEach((t, i) => {
      out.push('', `### ${i + 1}. ${mdInline(t?.question)}`);
      const turnEvents = list<Loose>(t?.events).filter((e) => e && typeof e === 'object');
      const acted = new Set(turnEvents.filter((e) => e.type === 'action').map((e) => e.step));
      for (const e of turnEvents)
        if (e.type !== 'sql' || !acted.has(e.step))
          for (const l of eventMarkdown(e)) out.push(l.replace(/^## /, '#### '));
    });
    out.push('', `## This question: ${mdInline(run.question)}`);
  }
  // SQL that requests without tools wrote (Auto, Direct) has no action to show it; the agent's has.
  const withAction = new Set(events.filter((e) => e.type === 'action').map((e) => e.step));
  // Lines pushed one by one: an answer's rows are a line each, and spreading 200,000 overflows the stack.
  for (const e of events)
    if (e.type !== 'sql' || !withAction.has(e.step)) for (const l of eventMarkdown(e)) out.push(l);
  return out.join('\n') + '\n';
}

function eventMarkdown(e: Loose): string[] {
  switch (e.type) {
    case 'plan': {
      const lines = ['', '## Plan', ''];
      list<Loose>((e.plan as Loose | undefined)?.sub_questions).forEach((q, i) => {
        const tables = list<Loose>(q?.tables)
          .map((t) => `${mdInline(t?.table)}(${list(t?.columns).map(mdInline).join(', ')})`)
          .join('; ');
        lines.push(`${i + 1}. ${mdInline(q?.text)} — ${tables}`);
      });
      return lines;
    }
    case 'route':
      return ['', `**Path:** ${e.path === 'agent' ? 'the agent with its tools' : 'grounded'}, ${mdBlock(e.reason)}`];
    case 'sql':
      return ['', `**SQL ${e.ok ? 'ran' : 'failed'}** (${mdInline(e.summary)}):`, mdFence(e.sql, 'sql')];
    case 'thought':
      return ['', `**Thought:** ${mdBlock(e.text)}`];
    case 'action':
      return ['', `**Action:** ${mdInline(e.tool)}`, mdFence(boundedJson(e.args, { indent: 2 }), 'json')];
    case 'observation':
      return ['', `**Observation** (${num(e.ms)} ms):`, mdFence(e.text)];
    case 'final': {
      const lines = ['', '## Answer', '', `Verdict: ${mdInline(e.verdict)}`, ''];
      if (e.unverified)
        lines.push('**Unverified:** the agent ran out of turns; this is the last SQL that ran and returned rows.', '');
      if (asText(e.explanation)) lines.push(mdBlock(e.explanation), '');
      const columns = list(e.columns);
      const rows = list<unknown[]>(e.rows);
      lines.push(mdFence(e.sql, 'sql'), '');
      if (columns.length) {
        lines.push(`| ${columns.map(mdCell).join(' | ')} |`, `|${columns.map(() => ' --- |').join('')}`);
        for (const r of rows)
          lines.push(
            `| ${list(r)
              .map((v) => mdCell(cell(v as SqlValue)))
              .join(' | ')} |`,
          );
      }
      if (e.truncated) lines.push('', `(first ${rows.length} of ${mdInline(e.totalRows) || 'more'} rows)`);
      const chart = chartLine(columns, rows, !!e.truncated);
      if (chart) lines.push('', chart);
      return lines;
    }
    case 'error':
      return ['', `**Error (${mdInline(e.code)}):** ${mdBlock(e.message)}`];
    default:
      return [];
  }
}

/**
 * The chart the page proposes for the answer's rows, in words (a Markdown file cannot hold the
 * drawing portably; the page saves it as SVG or PNG).
 */
function chartLine(columns: unknown[], rows: unknown[][], truncated: boolean): string | null {
  const names = columns.map((c) => asText(c));
  const values = rows.map((r) =>
    list(r).map(
      (v): SqlValue =>
        v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'bigint' ? v : asText(v),
    ),
  );
  const choice = chooseChart(names, values);
  if (choice.type === 'none') return null;
  const { description } = chartData(names, values, { ...choice, type: choice.type });
  return `Chart${truncated ? ' (of the rows shown)' : ''}: ${mdBlock(description)}`;
}
