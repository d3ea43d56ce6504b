// Reads a model reply written as text: `Thought: …` then `Action: tool_name {json}` — and what
// small models write instead: the JSON on the next lines or in code fences, `name({...})` or
// `name(query="Paris")`, single quotes and trailing commas, `<tool_call>{"name": …,
// "arguments": …}</tool_call>` blocks (Qwen, Hermes and Llama templates print them as text when
// the server does not turn them into tool calls), and several actions in one reply. Arguments are
// read with JSON.parse or JSON5 only (lenient-json.ts), never eval. What cannot be read becomes an
// error the loop sends back as the observation, saying what to write. Never throws.

import { parseToolArgs } from './lenient-json';

export type ParsedAction = { name: string; args: Record<string, unknown> } | { name: string; error: string };

export interface ParsedReply {
  thought: string;
  /** Every action in the reply, in order; unreadable ones carry their error. */
  actions: ParsedAction[];
  /** Why there is no action at all, when there is none. */
  noAction?: string;
}

/** The first action only, for callers that take one (kept for the step-by-step API and tests). */
export type ParsedFirst =
  | { thought: string; action: { name: string; args: Record<string, unknown> } }
  | { thought: string; error: string; kind: 'no_action' | 'bad_action' };

const ACTION_LINE = /^[ \t>*_#-]*action[ \t*_]*:[ \t*_]*/gim;
const TOOL_CALL = /<(tool_call|function_call)>\s*([\s\S]*?)\s*(?:<\/\1>|$)/gi;
const NAME = /^[`"']?([A-Za-z_][A-Za-z0-9_.:-]*)[`"']?/;
const MAX_REPLY_CHARS = 100_000;
const NO_ACTION = 'No action found. Write one line: Action: tool_name {"argument": "value"}';

/** The JSON object starting at `from` (a `{`), with strings and escapes respected; null when unclosed. */
function balancedObject(text: string, from: number): string | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(from, i + 1);
  }
  return null;
}

function cleanThought(text: string): string {
  return text
    .replace(/^[ \t>*_#-]*thought[ \t*_]*:[ \t*_]*/im, '')
    .replace(/<\/?think>/gi, '')
    .trim();
}

/** One `Action:` line (and what follows it, up to the next action). */
function readActionLine(rest: string): ParsedAction {
  const name = NAME.exec(rest);
  if (!name) {
    return {
      name: '(unreadable)',
      error: `The Action line does not start with a tool name: ${JSON.stringify(rest.split('\n')[0].slice(0, 80))}.`,
    };
  }
  const tool = name[1];
  const afterName = rest.slice(name[0].length);
  // name(query="Paris", k=3): keyword arguments on the same line.
  const kw = /^\s*\(([^{}\n]*)\)/.exec(afterName);
  if (kw && !kw[1].trim().startsWith('{')) {
    const parsed = parseToolArgs(tool, `(${kw[1]})`);
    return 'args' in parsed ? { name: tool, args: parsed.args } : { name: tool, error: parsed.error };
  }
  const brace = afterName.indexOf('{');
  // Only spaces, `(`, `:`, `=` or a newline may come between the name and its arguments.
  if (brace < 0 || !/^[\s(:=]*$/.test(afterName.slice(0, brace))) {
    return { name: tool, error: `Action ${tool} has no JSON arguments. Write: Action: ${tool} {"argument": "value"}` };
  }
  const json = balancedObject(afterName, brace);
  if (json === null) {
    return {
      name: tool,
      error: `The JSON arguments of ${tool} are not closed (cut off?). Write the whole object on one line.`,
    };
  }
  const parsed = parseToolArgs(tool, json);
  return 'args' in parsed ? { name: tool, args: parsed.args } : { name: tool, error: parsed.error };
}

/** `{"name": "search_value", "arguments": {...}}` (or "parameters"), as template tool calls print. */
function readToolCallBlock(body: string): ParsedAction {
  const parsed = parseToolArgs('the tool call', body);
  if ('error' in parsed)
    return {
      name: '(unreadable)',
      error: parsed.tooDeep
        ? parsed.error
        : `A <tool_call> block is not readable JSON. Write {"name": "tool_name", "arguments": {…}} inside it.`,
    };
  const {
    name,
    arguments: a,
    parameters: p,
  } = parsed.args as { name?: unknown; arguments?: unknown; parameters?: unknown };
  if (typeof name !== 'string' || !name.trim())
    return {
      name: '(unreadable)',
      error: 'A <tool_call> block has no "name". Write {"name": "tool_name", "arguments": {…}}.',
    };
  const raw = a ?? p ?? {};
  if (typeof raw === 'string') {
    const inner = parseToolArgs(name, raw);
    return 'args' in inner ? { name, args: inner.args } : { name, error: inner.error };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { name, error: `The arguments of ${name} must be one JSON object.` };
  return { name, args: raw as Record<string, unknown> };
}

export function parseActions(reply: unknown): ParsedReply {
  try {
    return parse(typeof reply === 'string' ? reply : String(reply ?? ''));
  } catch (e) {
    // Defensive: the parser is meant not to throw; a bug here must not end a run.
    return {
      thought: '',
      actions: [
        { name: '(unreadable)', error: `The reply could not be read (${e instanceof Error ? e.message : String(e)}).` },
      ],
    };
  }
}

function parse(raw: string): ParsedReply {
  let text = raw.length > MAX_REPLY_CHARS ? raw.slice(0, MAX_REPLY_CHARS) : raw;
  // The model may write an observation itself when the stop sequence is not honoured: it is not real.
  const observed = text.search(/^[ \t*_]*observation[ \t*_]*:/im);
  if (observed >= 0) text = text.slice(0, observed);

  const found: Array<{ at: number; action: ParsedAction }> = [];
  for (const m of text.matchAll(TOOL_CALL)) found.push({ at: m.index, action: readToolCallBlock(m[2]) });
  const plain = text
    .replace(TOOL_CALL, (m) => ' '.repeat(m.length))
    .replace(/```[A-Za-z0-9_-]*/g, (m) => ' '.repeat(m.length));
  const starts = [...plain.matchAll(ACTION_LINE)].map((m) => ({ at: m.index, body: m.index + m[0].length }));
  starts.forEach((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].at : plain.length;
    found.push({ at: s.at, action: readActionLine(plain.slice(s.body, end).trimStart()) });
  });
  found.sort((a, b) => a.at - b.at);
  if (!found.length) return { thought: cleanThought(plain), actions: [], noAction: NO_ACTION };
  return { thought: cleanThought(plain.slice(0, found[0].at)), actions: found.map((f) => f.action) };
}

/** The first action of a reply, or why there is none. */
export function parseAction(reply: unknown): ParsedFirst {
  const parsed = parseActions(reply);
  const first = parsed.actions[0];
  if (!first) return { thought: parsed.thought, error: parsed.noAction ?? NO_ACTION, kind: 'no_action' };
  if ('error' in first) return { thought: parsed.thought, error: first.error, kind: 'bad_action' };
  return { thought: parsed.thought, action: first };
}
