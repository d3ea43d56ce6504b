// Text from a run (the question, the model's thoughts, database names and values) written into
// Markdown so that it renders as that text and nothing else, in any viewer — HTML on or off.
// Markdown punctuation is backslash-escaped (no emphasis, links, images, headings, lists or
// tables can start inside a field) and `&`, `<`, `>` become entities (no raw HTML, no
// autolinks such as `<javascript:…>`). Code goes in fences longer than any backtick run in it.

const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()#+\-.!|~=:"']/g;

/** Any value as text: null and undefined as '', objects never as "[object Object]". */
export function asText(value: unknown): string {
  if (value == null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return '';
}

function escapeLine(line: string): string {
  return line.replace(MARKDOWN_PUNCTUATION, '\\$&').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** One line of text (headings, list items): line breaks become spaces. */
export function mdInline(value: unknown): string {
  return escapeLine(
    asText(value)
      .replace(/[\r\n\u2028\u2029]+/g, ' ')
      .trim(),
  );
}

/** Paragraph text (thoughts, explanations): lines kept, each escaped; no line can start a block. */
export function mdBlock(value: unknown): string {
  return asText(value)
    .split(/\r\n|[\r\n\u2028\u2029]/)
    .map((line) => escapeLine(line.trimStart()))
    .join('\n');
}

/** A table cell: like `mdInline`, NULL for null (a cell cannot be empty and still say so). */
export function mdCell(value: unknown): string {
  return value === null || value === undefined ? 'NULL' : mdInline(value) || ' ';
}

/** Code in a fence longer than any backtick run inside, so the text cannot close it. */
export function mdFence(value: unknown, lang = ''): string {
  const text = asText(value);
  let longest = 2;
  for (const m of text.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}
