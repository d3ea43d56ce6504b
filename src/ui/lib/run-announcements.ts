// What a screen reader hears while a run streams: the plan, each step's tool and outcome in a
// few words, where the answer is. Pure, so the wording is tested without a page.

import type { AgentEvent } from '../../core/agent/events';

const TOOL_WORDS: Record<string, string> = {
  submit_plan: 'plan',
  search_column: 'column search',
  search_value: 'value search',
  find_shortest_path: 'join path search',
  execute_sql: 'SQL',
  ask_user: 'question to you',
  done: 'answer check',
};

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** One short sentence for an event worth hearing, or null. */
export function announcementFor(event: AgentEvent): string | null {
  switch (event.type) {
    case 'plan': {
      const steps = event.plan.sub_questions;
      return `Plan with ${steps.length} step${steps.length === 1 ? '' : 's'}: ${steps
        .map((q, i) => `${i + 1}, ${cut(q.text, 80)}`)
        .join('; ')}.`;
    }
    case 'observation':
      // No tool: what the page sent back to the model (a repair, a value not stored, a check's objection).
      if (!event.tool) return 'Asked the model again with what the query showed.';
      // The plan itself was just said; "plan: done" after it would only push it out.
      if (event.tool === 'submit_plan' && event.ok) return null;
      return `${TOOL_WORDS[event.tool] ?? event.tool}: ${event.ok ? 'done' : 'failed'}.`;
    case 'route':
      return event.path === 'agent'
        ? `The agent takes over with its tools: ${cut(event.reason, 160)}`
        : 'Answering from the schema and its stored values.';
    case 'ask':
      return `The agent asks you: ${cut(event.question, 160)}`;
    case 'final': {
      const rows = event.totalRows ?? event.rows.length;
      return `Answer ready, below the steps: ${rows} row${rows === 1 ? '' : 's'}${
        event.explanation ? `. ${cut(event.explanation, 200)}` : '.'
      }`;
    }
    case 'error':
      return event.code === 'aborted' ? 'Stopped, as you asked.' : `The run stopped: ${cut(event.message, 200)}`;
    default:
      return null;
  }
}

/** The announcements of the events after the first `from`. */
export function announcementsSince(events: readonly AgentEvent[], from: number): string[] {
  return events
    .slice(from)
    .map(announcementFor)
    .filter((s): s is string => s !== null);
}
