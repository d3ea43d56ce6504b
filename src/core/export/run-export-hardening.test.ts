// Issue 11, items 5 and 8: a run file is rendered by Markdown viewers with HTML on, and opened
// back in the page. Every field is escaped; malformed files are refused with a reason; the
// Markdown export is total on anything.
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent/events';
import { runFromJson, runToJson, runToMarkdown, type ExportableRun } from './run-export';

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(2)>',
  '[click](javascript:alert(3))',
  '<javascript:alert(4)>',
  '![x](javascript:alert(5))',
  '<a href="javascript:alert(6)">a</a>',
  '</code></pre><svg onload=alert(7)>',
  '```\n<iframe src=javascript:alert(8)>\n```',
  '\n\n<details open ontoggle=alert(9)>\n\n',
  '[ref]\n\n[ref]: javascript:alert(10)',
  '&lt;script&gt;alert(11)&lt;/script&gt;',
  '| a | b |\n| --- | --- |\n| <b onmouseover=alert(12)>x</b> | y |',
  '    <style>*{display:none}</style>',
  '<!-- hidden --><math><mi xlink:href="javascript:alert(13)">x</mi></math>',
  '*emph* __strong__ # heading\n- item\n> quote',
];

const ev = (e: Record<string, unknown>, step = 1): AgentEvent => ({ step, at: 1000 + step, ...e }) as AgentEvent;

function runWith(p: string): ExportableRun {
  return {
    question: p,
    hints: p,
    dbName: p,
    provider: p,
    model: p,
    status: 'done',
    startedAt: 0,
    endedAt: 1000,
    events: [
      ev({ type: 'plan', plan: { sub_questions: [{ text: p, tables: [{ table: p, columns: [p] }] }] }, problems: [] }),
      ev({ type: 'thought', text: p }),
      ev({ type: 'action', tool: p, args: { sql: p, [p]: p } }),
      ev({ type: 'observation', tool: p, text: p, ok: true, ms: 1 }),
      ev({ type: 'ask', question: p, options: [p] }),
      ev({
        type: 'final',
        sql: p,
        columns: [p, 'n'],
        rows: [[p, 1]],
        totalRows: 1,
        truncated: true,
        explanation: p,
        verdict: 'match',
        note: p,
      }),
      ev({ type: 'error', code: p, message: p }),
    ],
  };
}

const ALLOWED_TAGS = new Set([
  'h1',
  'h2',
  'p',
  'ul',
  'ol',
  'li',
  'strong',
  'em',
  'code',
  'pre',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'br',
  'hr',
]);
const ALLOWED_ATTRIBUTES = /^(class="language-(json|sql)"|align="\w+"|start="\d+")$/;

/** Every tag the renderer produced, with its attributes. */
function tags(html: string): Array<{ name: string; attributes: string }> {
  return [...html.matchAll(/<\/?([a-zA-Z][\w:-]*)([^>]*)>/g)].map((m) => ({
    name: m[1].toLowerCase(),
    attributes: m[2].trim(),
  }));
}

describe('Markdown run export escapes every field for Markdown and HTML (item 5)', () => {
  it.each(PAYLOADS.map((p, i) => [i, p]))(
    'payload %i renders as text, with no live HTML or javascript: link',
    (_i, p) => {
      const md = runToMarkdown(runWith(p));
      const html = marked.parse(md, { async: false, gfm: true });
      for (const t of tags(html)) {
        expect(ALLOWED_TAGS, `tag <${t.name}> in\n${html}`).toContain(t.name);
        if (t.attributes) expect(t.attributes).toMatch(ALLOWED_ATTRIBUTES);
      }
      expect(tags(html).some((t) => /href|src|on\w+=|javascript:/i.test(t.attributes))).toBe(false);
      // The text is still there for people to read.
      if (p.includes('alert(')) expect(html).toContain('alert(');
    },
  );

  it('a payload shows as its own characters once rendered', () => {
    const html = marked.parse(runToMarkdown(runWith('<script>alert(1)</script> [x](javascript:y)')), { async: false });
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:y)');
  });
});

describe('run import (item 8): the same schema as the export', () => {
  const good = JSON.parse(runToJson(runWith('plain text'))) as { events: Array<Record<string, unknown>> };
  const withEvent = (type: string, change: (e: Record<string, unknown>) => void) => {
    const copy = structuredClone(good);
    change(copy.events.find((e) => e.type === type)!);
    return JSON.stringify(copy);
  };
  const MALFORMED: Array<[string, string]> = [
    ['a plan event without plan', withEvent('plan', (e) => delete e.plan)],
    ['final without rows', withEvent('final', (e) => delete e.rows)],
    ['rows that are not arrays', withEvent('final', (e) => (e.rows = [1, 'two']))],
    [
      'usage without total',
      JSON.stringify({
        ...good,
        events: [...good.events, { type: 'usage', usage: null, ms: 1, phase: 'agent', step: 1, at: 1 }],
      }),
    ],
    ['a thought with text: null', withEvent('thought', (e) => (e.text = null))],
    [
      'arguments nested 100,000 deep',
      withEvent('action', (e) => (e.args = '__DEEP__')).replace(
        '"__DEEP__"',
        '['.repeat(100_000) + ']'.repeat(100_000),
      ),
    ],
    ['an unknown event type', withEvent('thought', (e) => (e.type = 'script'))],
  ];

  it('reads every event type of its own export back', () => {
    const back = runFromJson(runToJson(runWith('plain text')));
    expect(back.events.map((e) => e.type)).toEqual([
      'plan',
      'thought',
      'action',
      'observation',
      'ask',
      'final',
      'error',
    ]);
  });

  it.each(MALFORMED)('refuses %s with a readable reason', (_what, text) => {
    expect(() => runFromJson(text)).toThrow(/not a Dowser run file, or it is damaged \(events\.\d+/);
  });

  it('Markdown export is total: malformed events and deep arguments never throw', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    const odd: unknown[] = [null, 7, 'x', [], {}, { toString: null }, deep];
    const types = ['plan', 'thought', 'action', 'observation', 'final', 'error', 'usage', 'ask', 'mystery'];
    const events: unknown[] = [];
    for (const type of types)
      for (const v of odd)
        events.push({
          type,
          plan: v,
          text: v,
          args: v,
          tool: v,
          rows: v,
          columns: v,
          sql: v,
          total: v,
          explanation: v,
          message: v,
          code: v,
          ms: v,
        });
    events.push(null, 3, 'x');
    const run = {
      question: null,
      hints: {},
      dbName: 5,
      provider: [],
      model: undefined,
      status: 'done',
      startedAt: 'x',
      events,
    } as unknown as ExportableRun;
    const md = runToMarkdown(run);
    expect(md).toContain('## Answer');
    expect(md).toContain('"…"'); // the deep arguments, cut
  });
});
