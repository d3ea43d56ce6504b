// A table file's bytes as text, in an encoding decided and said (issue 35, item 8: one stray byte
// used to make a whole UTF-8 file Windows-1252 without a word, José → JosÃ©, and a UTF-16 export
// failed). A byte-order mark names the encoding; UTF-16 without one shows in its zero bytes; valid
// UTF-8 is UTF-8; a file of UTF-8 with a few stray bytes stays UTF-8 (they show as U+FFFD and are
// counted: reading it as Windows-1252 would garble every accented letter instead); else
// Windows-1252, which spreadsheets on Windows still write. The person can choose another.

import type { EncodingChoice, EncodingUsed, EncodingWhy, TextEncoding } from './imported-file';

export interface DecodedText extends EncodingUsed {
  text: string;
}

/** Bytes looked at for UTF-16's zero bytes. */
const SNIFF_BYTES = 4096;

function bomOf(b: Uint8Array): TextEncoding | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return null;
}

/** UTF-16 text without a mark: most of one byte of each pair zero (Latin text), never the other. */
function utf16Order(b: Uint8Array): TextEncoding | null {
  const n = Math.min(b.length, SNIFF_BYTES) & ~1;
  if (n < 4) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (b[i] === 0) even++;
    if (b[i + 1] === 0) odd++;
  }
  const pairs = n / 2;
  if (odd >= pairs * 0.4 && even === 0) return 'utf-16le';
  if (even >= pairs * 0.4 && odd === 0) return 'utf-16be';
  return null;
}

/** Length of the valid UTF-8 sequence at `i` (1 for ASCII), or 0 when the byte there starts none. */
function utf8Sequence(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const second = c === 0xe0 ? cont(1, 0xa0) : c === 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    return second && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const second = c === 0xf0 ? cont(1, 0x90) : c === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    return second && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Valid multi-byte sequences and stray bytes of UTF-8, and the line of the first stray one. */
interface Utf8Census {
  multi: number;
  stray: number;
  firstLine?: number;
}

function utf8Census(b: Uint8Array): Utf8Census {
  let multi = 0;
  let stray = 0;
  let lines = 1;
  let firstLine: number | undefined;
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    if (c < 0x80) {
      if (c === 0x0a) lines++;
      i++;
      continue;
    }
    const n = utf8Sequence(b, i);
    if (n > 1) {
      multi++;
      i += n;
    } else {
      stray++;
      firstLine ??= lines;
      i++;
    }
  }
  return { multi, stray, ...(firstLine ? { firstLine } : {}) };
}

/** A cut-off multi-byte character at the end of a file's first bytes: dropped, not counted as stray. */
function withoutCutCharacter(b: Uint8Array): Uint8Array {
  for (let k = 1; k <= Math.min(3, b.length); k++) {
    const c = b[b.length - k];
    if (c < 0x80) return b;
    if (c >= 0xc0) {
      const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      return need > k ? b.subarray(0, b.length - k) : b;
    }
  }
  return b;
}

/** `census`: the bytes' UTF-8 census when the caller took it already (it reads every byte). */
function decodeAs(b: Uint8Array, name: TextEncoding, why: EncodingWhy, census?: Utf8Census): DecodedText {
  // TextDecoder drops a byte-order mark of its own encoding.
  const text = new TextDecoder(name).decode(b);
  if (name === 'windows-1252') return { text, name, why, replaced: 0 };
  if (name === 'utf-8') {
    if (!census && !text.includes('\uFFFD')) return { text, name, why, replaced: 0 };
    census ??= utf8Census(b);
    return { text, name, why, replaced: census.stray, ...(census.firstLine ? { firstLine: census.firstLine } : {}) };
  }
  let replaced = 0;
  let firstLine: number | undefined;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    else if (c === 0xfffd) {
      replaced++;
      firstLine ??= line;
    }
  }
  return { text, name, why, replaced, ...(firstLine ? { firstLine } : {}) };
}

/**
 * `bytes` as text. `cut`: they are a file's first bytes only (a preview), so a character cut off
 * at their end is not held against the encoding.
 */
export function decodeTable(bytes: Uint8Array, choice: EncodingChoice = 'auto', cut = false): DecodedText {
  const b = cut ? withoutCutCharacter(bytes) : bytes;
  const bom = bomOf(b);
  if (choice === 'utf-16') {
    const order = bom === 'utf-16be' ? 'utf-16be' : bom === 'utf-16le' ? 'utf-16le' : (utf16Order(b) ?? 'utf-16le');
    return decodeAs(evenLength(b, cut), order, 'chosen');
  }
  if (choice !== 'auto') return decodeAs(choice.startsWith('utf-16') ? evenLength(b, cut) : b, choice, 'chosen');
  if (bom) return decodeAs(bom === 'utf-8' ? b : evenLength(b, cut), bom, 'bom');
  const order = utf16Order(b);
  if (order) return decodeAs(evenLength(b, cut), order, 'utf16-bytes');
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(b), name: 'utf-8', why: 'valid', replaced: 0 };
  } catch {
    const census = utf8Census(b);
    return census.multi > census.stray
      ? decodeAs(b, 'utf-8', 'mostly-utf8', census)
      : decodeAs(b, 'windows-1252', 'looks-1252');
  }
}

/** UTF-16's first bytes cut at a whole unit. */
function evenLength(b: Uint8Array, cut: boolean): Uint8Array {
  return cut && b.length % 2 ? b.subarray(0, b.length - 1) : b;
}
