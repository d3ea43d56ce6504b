// Table files for the import red-team cases (issue 35, items 1, 6-10, 14), made by code in a temp
// folder each test removes: the shapes the report found (a headerless contact list, integers past
// 2^53, a stray byte, a UTF-16 export, JSON keys that are Object.prototype's names, reserved table
// names, a very wide file) with data of their own.

import { tempFolder, type TempFolder } from '../../test-support/temp-folder';

export type FixtureDir = TempFolder;

/** A temporary folder named for the item (`dowser-<prefix>-…`). */
export const fixtureDir = (prefix: string): FixtureDir => tempFolder(`dowser-${prefix}-`);

/** Invented people: a full name, a town, a word of their own, an e-mail address (no two alike). */
export const CONTACTS = [
  ['Brannoch Velstrade', 'Quimbury', 'tarnwise', 'ollendrake@example.net'],
  ['Isolde Farrowgate', 'Pellinmoor', 'cobaltine', 'wistermane@example.net'],
  ['Corwen Haldane', 'Ashcombe', 'lumivex', 'fernhollow@example.net'],
  ['Maelis Trennick', 'Dovecastle', 'quarrel', 'brightwater@example.net'],
  ['Osric Penhallow', 'Marrowby', 'silverash', 'kettlewick@example.net'],
  ['Talwyn Esquith', 'Harrowdene', 'brackenite', 'moorlight@example.net'],
] as const;

/** The red-team's shape: a contact list whose first line is already a person. */
export function contactsCsv(header?: readonly string[]): string {
  return [...(header ? [header] : []), ...CONTACTS].map((r) => r.join(',')).join('\n') + '\n';
}

/** `text` as UTF-16 little-endian with its byte-order mark (a spreadsheet's "Unicode text"). */
export function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[2 + i * 2] = c & 0xff;
    out[3 + i * 2] = c >> 8;
  }
  return out;
}

/** `text` as Windows-1252 (every character of it must be Latin-1). */
export function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

/** UTF-8 bytes of `before`, one byte that is no UTF-8 (0xFF), then `after`. */
export function utf8WithStrayByte(before: string, after: string): Uint8Array {
  const enc = new TextEncoder();
  return new Uint8Array([...enc.encode(before), 0xff, ...enc.encode(after)]);
}

/** A CSV `columns` wide: a header row and two rows of numbers. */
export function wideCsv(columns: number): string {
  const row = (f: (i: number) => string) => Array.from({ length: columns }, (_, i) => f(i)).join(',');
  return `${row((i) => `c${i + 1}`)}\n${row((i) => String(i))}\n${row((i) => String(i * 2))}\n`;
}
