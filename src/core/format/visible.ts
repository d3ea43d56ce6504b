// Text from a database (or a model) shown to a person must not be able to drive or fool the
// display: an ESC sequence can recolour, move the cursor or rewrite earlier lines of a terminal,
// a CR can overwrite the current line, bidi controls reorder what is shown (`RTL\u202eexe.txt`
// reads as "RTLtxt.exe"), and zero-width characters make two names look alike. The privacy marks
// around database values (privacy/marks.ts) are for the model's gate only and are dropped. Such characters
// become visible marks instead: `\x1b`-style escapes in the terminal (`visible`), `⟨U+202E⟩` in
// the page (`displayText`). This is display only, never export.

import { unmark } from '../privacy/marks';

/**
 * The characters that are never shown as themselves: C0 and C1 controls, DEL, the bidi controls
 * (ALM, LRM/RLM, LRE…RLO, LRI…PDI), the line and paragraph separators, and the invisible
 * zero-width space, word joiner and BOM. ZWJ and ZWNJ stay: emoji and several scripts need them.
 */
// Above C0: what JSON.stringify leaves raw.
const UNSAFE_ABOVE_C0 =
  '\\u007f-\\u009f\\u061c\\u200b\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff';
const UNSAFE = new RegExp(`[\\u0000-\\u001f${UNSAFE_ABOVE_C0}]`, 'g');
const UNSAFE_IN_JSON = new RegExp(`[${UNSAFE_ABOVE_C0}]`, 'g');

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const cp = ch.codePointAt(0)!;
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/** `text` with control, line-separator and bidi-control characters replaced by `\n`, `\x1b`, `\u202e`... */
export function visible(text: string): string {
  return unmark(text).replace(UNSAFE, escapeChar);
}

/**
 * For CSV on a terminal: like `visible`, but tabs, LF and CR LF stay, since they are the
 * layout of the file (quoted by the CSV writer) and cannot drive the terminal.
 */
export function visibleKeepingLines(text: string): string {
  return unmark(text)
    .split('\r\n')
    .map((part) => part.replace(UNSAFE, (ch) => (ch === '\n' || ch === '\t' ? ch : escapeChar(ch))))
    .join('\r\n');
}

/** A character as the page shows one it will not show as itself: `⟨U+202E⟩`. */
export const codePointMark = (ch: string): string =>
  `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;

/**
 * For the page: every unsafe character shown as `⟨U+202E⟩`. `lineBreaks: 'keep'` leaves LF and
 * tab as they are (cell text, multi-line observations); names are shown with every mark.
 */
export function displayText(text: string, options: { lineBreaks?: 'keep' | 'mark' } = {}): string {
  const keep = options.lineBreaks === 'keep';
  return unmark(text).replace(UNSAFE, (ch) => (keep && (ch === '\n' || ch === '\t') ? ch : codePointMark(ch)));
}

/**
 * JSON text safe to print: JSON.stringify escapes C0 controls already, but leaves DEL, C1
 * controls, the bidi controls and U+2028/U+2029 raw (and a pretty-printed JSON's own line
 * breaks must stay). Those can only occur inside string literals, where `\uXXXX` means the same character: the JSON still parses to the same value.
 */
export function escapeJsonForDisplay(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

/**
 * Columns a code point takes in a monospace terminal: 0 for combining marks and joiners, 2 for
 * East Asian wide and fullwidth characters and most emoji, else 1. An approximation of
 * Unicode's East Asian Width, good enough to keep table columns aligned.
 */
export function codePointWidth(cp: number): number {
  if ((cp >= 0x300 && cp <= 0x36f) || cp === 0x200b || cp === 0x200c || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f))
    return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += codePointWidth(ch.codePointAt(0)!);
  return w;
}

/** `text` cut to at most `width` columns, ending in `…` when something was cut. */
export function cutToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let w = 0;
  for (const ch of text) {
    const cw = codePointWidth(ch.codePointAt(0)!);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return out + '…';
}

/** `text` padded with spaces to `width` display columns (String.padEnd counts UTF-16 units). */
export function padEndWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}
