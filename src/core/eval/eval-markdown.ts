// The evaluation report as Markdown: score table by difficulty and by joined tables, cost per
// question, why answers were wrong. Cell text is escaped so a question cannot break the table.

import type { Distribution, EvalDetails, EvalSummary, Score } from './eval-summary';

export interface ReportHeader {
  title: string;
  /** Lines like "provider: openai (gpt-4o-mini)". */
  facts: string[];
}

const cell = (v: unknown) =>
  String(v ?? '–')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');

function table(head: string[], rows: unknown[][]): string {
  return [
    `| ${head.map(cell).join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));

function scoreTable(label: string, groups: Record<string, Score>, total: Score, softF1: boolean): string {
  const head = [label, 'n', 'EX %', ...(softF1 ? ['soft F1 %'] : [])];
  const row = (k: string, s: Score) => [k, s.n, pct(s.ex), ...(softF1 ? [pct(s.softF1)] : [])];
  return table(head, [...Object.entries(groups).map(([k, s]) => row(k, s)), row('all', total)]);
}

const num = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2 });

function costRow(label: string, d: Distribution): unknown[] {
  return [label, ...[d.mean, d.p50, d.p90, d.p95, d.max].map(num)];
}

export function evalMarkdown(header: ReportHeader, summary: EvalSummary, details: EvalDetails): string {
  const softF1 = summary.softF1 !== undefined;
  const total: Score = { n: summary.n, ex: summary.ex, ...(softF1 ? { softF1: summary.softF1 } : {}) };
  const t = summary.tokensPerQuestion;
  const parts = [
    `# ${header.title}`,
    header.facts.map((f) => `- ${f}`).join('\n'),
    `Scored ${summary.n}, skipped ${summary.skipped}, failed ${summary.failed}` +
      (details.pending ? `, not yet run ${details.pending} (run the same command again to continue)` : '') +
      '.',
    ...(summary.byTurn
      ? [
          '## Conversations',
          `Question match ${pct(summary.questionMatch)}% over ${summary.turns} turns; interaction match ${pct(summary.interactionMatch)}% over ${summary.interactions} interactions.`,
          table(
            ['turn', 'n', 'match %', 'input tokens (mean)'],
            Object.entries(summary.byTurn).map(([k, s]) => [k, s.n, pct(s.ex), num(s.inputTokens)]),
          ),
        ]
      : []),
    '## Execution accuracy by difficulty',
    scoreTable('difficulty', summary.byDifficulty, total, softF1),
    '## By number of tables the reference reads',
    scoreTable('tables', details.byJoinedTables, total, softF1),
    '## Cost per question',
    table(
      ['', 'mean', 'p50', 'p90', 'p95', 'max'],
      [
        costRow('input tokens', t.input),
        costRow('input tokens of the first request', details.firstRequestTokens),
        costRow('cached input tokens', t.cached),
        costRow('output tokens', t.output),
        costRow('total tokens', t.total),
        costRow('model requests', summary.requestsPerQuestion),
        costRow('tool calls', details.toolCallsPerQuestion),
        costRow('seconds', summary.secondsPerQuestion),
      ],
    ),
    details.tokensEstimated ? '_Some token counts are estimates: the provider reported no usage._' : '',
    '## Wrong answers by cause',
    table(
      ['cause', 'count'],
      Object.entries(details.misses).map(([k, v]) => [k.replace(/_/g, ' '), v]),
    ),
  ];
  const reasons = (title: string, m: Record<string, number>) =>
    Object.keys(m).length ? [`## ${title}`, table(['reason', 'count'], Object.entries(m))] : [];
  parts.push(...reasons('Skipped', details.skippedReasons), ...reasons('Failed', details.failedReasons));
  return parts.filter(Boolean).join('\n\n') + '\n';
}
