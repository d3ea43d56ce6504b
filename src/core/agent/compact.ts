// Observations the model has already acted on are shortened in later requests: every request
// resends the whole conversation, and a search result of twenty lines is worth two once the model
// has picked its value. An observation is shortened once, right after the model's next reply,
// keeping the lines that reply used (a quoted value or a table.column it repeats), the first line
// and the count line; it never changes again, so the conversation's prefix stays byte-identical
// from one request to the next and provider-side prompt caches keep working.

/** Observations up to this many characters are kept whole: shortening them saves little. */
export const COMPACT_ABOVE_CHARS = 400;
const FIRST_ROWS = 3;

const quoted = (line: string) => [...line.matchAll(/"((?:[^"\\]|\\.){1,200})"/g)].map((m) => m[1]);
const dotted = (line: string) => [...line.matchAll(/[\p{L}\p{N}_]+\.[\p{L}\p{N}_]+/gu)].map((m) => m[0]);

/** A value counts as used when the reply quotes it whole: as an SQL literal or a (JSON) string. */
function quotesValue(reply: string, value: string): boolean {
  const sql = `'${value.replace(/'/g, "''")}'`;
  return [sql, `"${value}"`, `\\"${value}\\"`].some((form) => reply.includes(form));
}

function usedBy(line: string, reply: string): boolean {
  return quoted(line).some((q) => quotesValue(reply, q)) || dotted(line).some((d) => reply.includes(d));
}

/** The observation as later requests carry it. Unchanged when short, or when it is an error. */
export function compactObservation(tool: string, text: string, reply: string): string {
  if (text.length <= COMPACT_ABOVE_CHARS || /^(Error|Bad arguments|Unknown tool)/.test(text)) return text;
  const lines = text.split('\n');
  const keep = new Set<number>([0]);
  if (tool === 'execute_sql') {
    // Columns, the first rows, and the count: what the model read to decide its next step.
    for (let i = 1; i <= FIRST_ROWS && i < lines.length; i++) keep.add(i);
    lines.forEach((l, i) => /^\((\d+ of |no rows|\d+ rows?\))/i.test(l) && keep.add(i));
  } else {
    lines.forEach((l, i) => i > 0 && usedBy(l, reply) && keep.add(i));
    if (keep.size === 1 && lines.length > 1) keep.add(1);
  }
  const left = lines.length - keep.size;
  if (left <= 1) return text;
  const kept = lines.filter((_, i) => keep.has(i));
  return `${kept.join('\n')}\n[${left} more line${left === 1 ? '' : 's'} of this result left out: already read]`;
}
