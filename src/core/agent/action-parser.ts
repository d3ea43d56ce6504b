// Reads one text-protocol reply: `Thought: …` then `Action: tool_name {json}`. Arguments are
// parsed with JSON.parse only (never eval). Models wrap replies in code fences, put the JSON on
// the next lines, write `name({...})` or keep talking after the JSON, so all of that is accepted;
// anything else becomes an error string the loop sends back as the observation. Never throws.

export type ParsedReply =
  | { thought: string; action: { name: string; args: Record<string, unknown> } }
  | { thought: string; error: string; kind: 'no_action' | 'bad_action' };

const ACTION_LINE = /^[ \t>*_#-]*action[ \t*_]*:[ \t*_]*/im;
const NAME = /^[`"']?([A-Za-z_][A-Za-z0-9_]*)[`"']?/;
const MAX_REPLY_CHARS = 100_000;

/** The JSON object starting at `from` (a `{`), with strings and escapes respected; null when unclosed. */
function balancedObject(text: string, from: number): string | null {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(from, i + 1);
  }
  return null;
}

function cleanThought(text: string): string {
  return text.replace(/^[ \t>*_#-]*thought[ \t*_]*:[ \t*_]*/im, '').trim();
}

export function parseAction(reply: unknown): ParsedReply {
  try {
    return parse(typeof reply === 'string' ? reply : String(reply ?? ''));
  } catch (e) {
    // Defensive: the parser is meant not to throw; a bug here must not end a run.
    return {
      thought: '',
      error: `The reply could not be read (${e instanceof Error ? e.message : String(e)}).`,
      kind: 'bad_action',
    };
  }
}

function parse(raw: string): ParsedReply {
  let text = raw.length > MAX_REPLY_CHARS ? raw.slice(0, MAX_REPLY_CHARS) : raw;
  // The model may write an observation itself when the stop sequence is not honoured: it is not real.
  const observed = text.search(/^[ \t*_]*observation[ \t*_]*:/im);
  if (observed >= 0) text = text.slice(0, observed);
  text = text.replace(/```[A-Za-z]*/g, '');

  const m = ACTION_LINE.exec(text);
  if (!m) {
    return {
      thought: cleanThought(text),
      error: 'No action found. Write one line: Action: tool_name {"argument": "value"}',
      kind: 'no_action',
    };
  }
  const thought = cleanThought(text.slice(0, m.index));
  const rest = text.slice(m.index + m[0].length).trimStart();
  const name = NAME.exec(rest);
  if (!name) {
    return {
      thought,
      error: `The Action line does not start with a tool name: ${JSON.stringify(rest.split('\n')[0].slice(0, 80))}.`,
      kind: 'bad_action',
    };
  }
  const tool = name[1];
  const afterName = rest.slice(name[0].length);
  const brace = afterName.indexOf('{');
  // Only spaces, `(`, `:` or a newline may come between the name and its arguments.
  if (brace < 0 || !/^[\s(:=]*$/.test(afterName.slice(0, brace))) {
    return {
      thought,
      error: `Action ${tool} has no JSON arguments. Write: Action: ${tool} {"argument": "value"}`,
      kind: 'bad_action',
    };
  }
  const json = balancedObject(afterName, brace);
  if (json === null) {
    return {
      thought,
      error: `The JSON arguments of ${tool} are not closed (cut off?). Write the whole object on one line.`,
      kind: 'bad_action',
    };
  }
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch (e) {
    return {
      thought,
      error: `The arguments of ${tool} are not valid JSON (${e instanceof Error ? e.message : 'parse error'}). Use double quotes and escape quotes inside strings.`,
      kind: 'bad_action',
    };
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { thought, error: `The arguments of ${tool} must be a JSON object.`, kind: 'bad_action' };
  }
  return { thought, action: { name: tool, args: args as Record<string, unknown> } };
}
