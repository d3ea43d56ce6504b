// Human output of `dowser ask`: each event as readable lines the moment it arrives. Everything
// from the model or the database goes through `visible`, so neither can drive the terminal.
// Text deltas are not shown: this is a line log (often piped or grepped), and the whole thought
// follows a moment later; --json carries the deltas for anyone who wants them live.

import type { AgentEvent, UsageTotals } from '../../core/agent/events';
import { formatTextTable } from '../../core/format/text-table';
import { cutToWidth, visible } from '../../core/format/visible';
import type { CliIo } from '../command';
import { bigintSafe } from '../json';

const OBSERVATION_LINES = 12;
const LINE_WIDTH = 160;

const indent = (text: string, prefix = '    ') =>
  text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');

function argsText(args: unknown): string {
  if (args === null || args === undefined) return '';
  return ` ${cutToWidth(visible(JSON.stringify(args, bigintSafe)), LINE_WIDTH)}`;
}

/** An observation, indented and cut to a few lines so a long tool answer does not flood the run. */
function observationText(text: string): string {
  const lines = text.split('\n');
  const shown = lines.slice(0, OBSERVATION_LINES).map((l) => cutToWidth(visible(l), LINE_WIDTH));
  if (lines.length > OBSERVATION_LINES) shown.push(`… (${lines.length - OBSERVATION_LINES} more lines)`);
  return indent(shown.join('\n'));
}

function planText(e: Extract<AgentEvent, { type: 'plan' }>): string {
  const lines = [e.edited ? 'plan (edited, confirmed):' : e.confirmed ? 'plan (confirmed):' : 'plan:'];
  e.plan.sub_questions.forEach((q, i) => {
    const tables = q.tables.map((t) => `${t.table}(${t.columns.join(', ')})`).join(', ');
    lines.push(`  ${i + 1}. ${visible(q.text)}${tables ? ` — ${visible(tables)}` : ''}`);
  });
  for (const p of e.problems) {
    const close = p.suggestions.length ? ` (close: ${p.suggestions.join(', ')})` : '';
    lines.push(`  ! sub-question ${p.subQuestion + 1}: ${visible(p.message + close)}`);
  }
  return lines.join('\n');
}

function finalText(e: Extract<AgentEvent, { type: 'final' }>, width?: number): string {
  const out = [
    e.unverified
      ? 'final SQL (UNVERIFIED: the agent ran out of turns; this is the last SQL that returned rows):'
      : 'final SQL:',
    indent(e.sql.split('\n').map(visible).join('\n')),
    formatTextTable({ columns: e.columns, rows: e.rows, truncated: e.truncated }, { maxWidth: width }).trimEnd(),
  ];
  if (e.truncated && e.totalRows !== null) out.push(`(${e.totalRows} rows in all)`);
  if (e.explanation) out.push(`explanation: ${visible(e.explanation)}`);
  out.push(`verdict: ${e.verdict}${e.note ? ` (${visible(e.note)})` : ''}`);
  return out.join('\n');
}

function previewText(e: Extract<AgentEvent, { type: 'step_preview' }>, width?: number): string {
  const out = [
    `step ${e.subQuestion} SQL${e.unverified ? ' (unverified: the check ran out of turns)' : ''}:`,
    indent(e.sql.split('\n').map(visible).join('\n')),
    formatTextTable({ columns: e.columns, rows: e.rows, truncated: e.truncated }, { maxWidth: width }).trimEnd(),
  ];
  if (e.truncated) out.push(`(first ${e.rows.length} rows${e.totalRows !== null ? ` of ${e.totalRows}` : ''})`);
  return out.join('\n');
}

export function usageLine(total: UsageTotals | null, calls: number, ms: number): string {
  const time = `${(ms / 1000).toFixed(1)} s`;
  if (!total) return `usage: no model calls, ${time}`;
  const est = total.estimated ? ' (estimated)' : '';
  const cached = total.cachedInputTokens ? ` (${total.cachedInputTokens} of the input from the provider's cache)` : '';
  return `usage: ${total.inputTokens} input + ${total.outputTokens} output tokens${est}${cached} in ${calls} model call${calls === 1 ? '' : 's'}, ${time}`;
}

/** Writes one event for a person; errors go to stderr like every other CLI error. */
export function renderEvent(e: AgentEvent, io: CliIo): void {
  const out = (text: string) => io.stdout.write(text + '\n');
  switch (e.type) {
    case 'status':
      return void out(`— turn ${e.turn}/${e.maxTurns}`);
    case 'route':
      return void out(`path: ${e.path === 'grounded' ? 'grounded' : 'the agent'}, ${visible(e.reason)}`);
    case 'plan':
      return void out(planText(e));
    case 'thought':
      return void out(`thought: ${visible(e.text)}`);
    case 'action':
      return void out(`action: ${visible(e.tool)}${argsText(e.args)}`);
    case 'observation':
      return void out(
        `observation${e.ok ? '' : ' (failed)'}${e.ms ? `, ${e.ms} ms` : ''}:\n${observationText(e.text)}`,
      );
    case 'sql':
      return void out(`  sql ${e.ok ? 'ran' : 'failed'}: ${visible(e.summary)}`);
    case 'final':
      return void out(finalText(e, io.columns));
    case 'step_preview':
      return void out(previewText(e, io.columns));
    case 'plan_waiting':
      return void out('plan: waiting for Continue');
    case 'ask':
      return void out(
        `ask: ${visible(e.question)}\n${e.options.map((opt, i) => `    ${i + 1}. ${visible(opt)}`).join('\n')}` +
          (e.defaultAnswer === undefined
            ? ''
            : `\n    → nobody to answer here: the first option, ${JSON.stringify(visible(e.defaultAnswer))}, was taken by default`),
      );
    case 'error':
      return void io.stderr.write(`error [${e.code}]: ${visible(e.message)}\n`);
    case 'usage':
      // Tokens are summed up once at the end; why a request was made is said as it ends.
      return void (e.why ? out(`request ${e.step}: ${visible(e.why)}`) : undefined);
    case 'thought_delta':
      return; // see the header
  }
}
