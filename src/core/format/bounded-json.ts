// JSON text for showing or exporting a value that came from a model or a file: nesting deeper
// than `maxDepth` is written as "…" and the text stops near `maxChars`, so a tool call with
// 100,000 nested arrays (JSON.parse accepts it; JSON.stringify overflows the stack on it)
// still renders. Display and export only: the value itself is never changed.

export interface BoundedJsonOptions {
  maxDepth?: number;
  maxChars?: number;
  /** Spaces per level; 0 writes one line. */
  indent?: number;
}

const TOO_DEEP = '"…"';

export function boundedJson(value: unknown, options: BoundedJsonOptions = {}): string {
  const maxDepth = options.maxDepth ?? 12;
  const maxChars = options.maxChars ?? 4000;
  const indent = options.indent ?? 0;
  let length = 0;
  const ancestors = new Set<object>();

  const write = (v: unknown, depth: number): string | undefined => {
    if (length > maxChars) return '';
    let out: string | undefined;
    if (v === null || typeof v === 'boolean') out = String(v);
    else if (typeof v === 'number') out = Number.isFinite(v) ? String(v) : 'null';
    else if (typeof v === 'bigint') out = JSON.stringify(String(v));
    else if (typeof v === 'string') out = JSON.stringify(v.length > maxChars ? `${v.slice(0, maxChars)}…` : v);
    else if (typeof v !== 'object')
      return undefined; // undefined, functions, symbols: left out like JSON.stringify
    else if (depth >= maxDepth || ancestors.has(v)) out = TOO_DEEP;
    else out = container(v, depth);
    length += out.length;
    return out;
  };

  const container = (v: object, depth: number): string => {
    ancestors.add(v);
    const pad = indent ? '\n' + ' '.repeat(indent * (depth + 1)) : '';
    const close = indent ? '\n' + ' '.repeat(indent * depth) : '';
    const parts: string[] = [];
    if (Array.isArray(v) || ArrayBuffer.isView(v)) {
      for (const item of Array.from(v as ArrayLike<unknown>)) {
        if (length > maxChars) {
          parts.push(TOO_DEEP);
          break;
        }
        parts.push(write(item, depth + 1) ?? 'null');
      }
      ancestors.delete(v);
      return parts.length ? `[${pad}${parts.join(`,${pad}`)}${close}]` : '[]';
    }
    for (const [k, item] of Object.entries(v)) {
      if (length > maxChars) {
        parts.push(`${JSON.stringify('…')}:${indent ? ' ' : ''}${TOO_DEEP}`);
        break;
      }
      const text = write(item, depth + 1);
      if (text !== undefined) parts.push(`${JSON.stringify(k)}:${indent ? ' ' : ''}${text}`);
    }
    ancestors.delete(v);
    return parts.length ? `{${pad}${parts.join(`,${pad}`)}${close}}` : '{}';
  };

  return write(value, 0) ?? 'null';
}

/**
 * Nesting no tool call's arguments need (a plan is 6 levels deep): deeper arguments are refused
 * as a tool error (core/agent/lenient-json.ts) and echoed to a provider as text, never parsed.
 */
export const MAX_ARGUMENT_NESTING = 32;

/**
 * How deep `[` and `{` nest in JSON or JSON5 text, counted before it is parsed (strings in either
 * quote skipped); counting stops once past `limit`. JSON.parse reads 100,000 levels, but the walks
 * of the value after it (JSON.stringify, structuredClone, zod, our own) overflow the stack.
 */
export function jsonNesting(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > deepest && (deepest = depth) > limit) break;
    } else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}
