// Tool arguments as models really write them. Small local models (7B–14B) wrap JSON in code
// fences, send it as a JSON string inside a string, use single quotes, leave trailing commas, or
// write Python keyword calls `name(query="Paris", k=5)`. Each is read here with JSON.parse and
// JSON5 (a well-kept parser of that looser syntax) — never eval — and anything still unreadable
// becomes a message that tells the model exactly what to write instead.

import JSON5 from 'json5';
import { jsonNesting, MAX_ARGUMENT_NESTING } from '../format/bounded-json';

export type ArgsResult =
  | { args: Record<string, unknown> }
  /** `tooDeep`: refused for its nesting (MAX_ARGUMENT_NESTING), not for its syntax. */
  | { error: string; tooDeep?: true };

const FENCE = /^```[A-Za-z0-9_-]*\s*([\s\S]*?)\s*```$/;

function stripWrapping(text: string): string {
  let t = text.trim();
  const fenced = FENCE.exec(t);
  if (fenced) t = fenced[1].trim();
  if (t.startsWith('`') && t.endsWith('`') && t.length > 1) t = t.slice(1, -1).trim();
  return t;
}

class TooDeep extends Error {}

/** JSON first, then JSON5; a string that holds JSON is read once more (arguments sent as "\"{…}\""). */
function readValue(text: string, depth = 0): unknown {
  // Refused before parsing: the value would overflow the stack of whatever walks it next.
  if (jsonNesting(text, MAX_ARGUMENT_NESTING) > MAX_ARGUMENT_NESTING) throw new TooDeep();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = JSON5.parse(text);
  }
  if (typeof value === 'string' && depth < 2) {
    const inner = stripWrapping(value);
    if (inner.startsWith('{')) return readValue(inner, depth + 1);
  }
  return value;
}

/** `query="Paris", k=5, table='city'`: Python-style keyword arguments, literals only. */
const KWARG =
  /\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?|true|false|True|False|None|null)\s*(,|$)/y;

export function keywordArgs(text: string): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  KWARG.lastIndex = 0;
  let matched = 0;
  while (KWARG.lastIndex < text.length) {
    const m = KWARG.exec(text);
    if (!m) return null;
    const raw = m[2];
    out[m[1]] = raw === 'True' ? true : raw === 'False' ? false : raw === 'None' ? null : (JSON5.parse(raw) as unknown);
    matched++;
    if (!m[3]) break;
  }
  return matched ? out : null;
}

/** The arguments of `tool` from what the model wrote; an error that says what to write otherwise. */
export function parseToolArgs(tool: string, raw: string): ArgsResult {
  const text = stripWrapping(raw);
  if (text === '') return { args: {} };
  const parenthesised = /^\(([\s\S]*)\)$/.exec(text);
  const body = parenthesised ? parenthesised[1].trim() : text;
  if (!body.startsWith('{') && !body.startsWith('"')) {
    const kwargs = keywordArgs(body);
    if (kwargs) return { args: kwargs };
  }
  let value: unknown;
  try {
    value = readValue(body);
  } catch (e) {
    if (e instanceof TooDeep)
      return {
        error: `The arguments of ${tool} nest more than ${MAX_ARGUMENT_NESTING} levels of [ and { inside each other; no tool takes that. Write one JSON object of plain values, e.g. {"sql": "SELECT …"}.`,
        tooDeep: true,
      };
    const why = e instanceof Error ? e.message.replace(/^JSON5: /, '') : 'parse error';
    return {
      error: `The arguments of ${tool} are not valid JSON (${why}). Write one JSON object with double quotes, e.g. {"sql": "SELECT …"}.`,
    };
  }
  // "" (a call without arguments, as some servers send it) is no arguments.
  if (typeof value === 'string' && value.trim() === '') return { args: {} };
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { error: `The arguments of ${tool} must be one JSON object, e.g. {"query": "…"}.` };
  return { args: value as Record<string, unknown> };
}
