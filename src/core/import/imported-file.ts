// How an imported table file was read (issue 35): whether its first row named the columns and
// why, the encoding of its text and why, and the sentences the page and the CLI say them in.
// Apart from the readers so the open report (core/types.ts) can carry it without a circle.

/** `--header` / the dialog's "First row": names, data, or decided on evidence. */
export type HeaderChoice = 'yes' | 'no' | 'auto';
export const HEADER_CHOICES: readonly HeaderChoice[] = ['yes', 'no', 'auto'];

export type HeaderVerdict = 'header' | 'data' | 'unsure';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
/** An encoding asked for; `utf-16` takes the byte order from the mark (little-endian without one). */
export type EncodingChoice = 'auto' | 'utf-16' | TextEncoding;
export const ENCODING_CHOICES: readonly EncodingChoice[] = ['utf-8', 'utf-16', 'utf-16le', 'utf-16be', 'windows-1252'];

export const ENCODING_NAMES: Record<TextEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
  'windows-1252': 'Windows-1252',
};

/** Why that encoding: the person chose it, a byte-order mark, the bytes themselves. */
export type EncodingWhy = 'chosen' | 'bom' | 'valid' | 'utf16-bytes' | 'mostly-utf8' | 'looks-1252';

export interface EncodingUsed {
  name: TextEncoding;
  why: EncodingWhy;
  /** Bytes that were no text of the encoding, shown as U+FFFD. */
  replaced: number;
  /** The line of the first of them. */
  firstLine?: number;
}

export interface HeaderUsed {
  /** Whether the first row was taken as the column names. */
  taken: boolean;
  choice: HeaderChoice;
  verdict: HeaderVerdict;
  reason: string;
}

export interface ImportedFile {
  file: string;
  table: string;
  columns: string[];
  /** CSV and TSV (JSON's keys name its columns). */
  header?: HeaderUsed;
  encoding: EncodingUsed;
}

const WHY: Record<Exclude<EncodingWhy, 'mostly-utf8'>, string> = {
  chosen: '',
  bom: 'its byte-order mark says so',
  valid: 'it is valid UTF-8',
  'utf16-bytes': 'no byte-order mark, but its bytes are UTF-16',
  'looks-1252': 'it is no UTF-8, and its bytes look like Windows-1252',
};

/**
 * "read as UTF-16LE (its byte-order mark says so)"; `chosenBy` says who chose it ("as
 * --encoding says", "as chosen"); stray bytes are counted with the line of the first.
 */
export function encodingSentence(e: EncodingUsed, chosenBy: string): string {
  const name = ENCODING_NAMES[e.name];
  const why = e.why === 'chosen' ? chosenBy : e.why === 'mostly-utf8' ? '' : WHY[e.why];
  const stray = e.replaced
    ? `${e.replaced === 1 ? '1 byte is' : `${e.replaced} bytes are`} no ${name} and ${e.replaced === 1 ? 'shows' : 'show'} as \uFFFD${e.firstLine ? ` (first on line ${e.firstLine})` : ''}`
    : '';
  return `read as ${name}${why ? ` (${why})` : ''}${stray ? `, but ${stray}` : ''}`;
}

/** The encoding to offer instead, when the one used may be wrong. */
export function otherEncoding(e: EncodingUsed): TextEncoding | null {
  if (e.why === 'looks-1252') return 'utf-8';
  return e.name === 'utf-8' && e.replaced > 0 ? 'windows-1252' : null;
}

/** "column_1…column_4", or the names when there are few. */
export function columnRange(columns: readonly string[]): string {
  return columns.length <= 2 ? columns.join(', ') : `${columns[0]}…${columns[columns.length - 1]}`;
}

/** Names said: the first 20, then how many there are in all. */
const LISTED_NAMES = 20;

function namesList(columns: readonly string[]): string {
  const shown = columns.slice(0, LISTED_NAMES).join(', ');
  return columns.length > LISTED_NAMES ? `${shown}, … (${columns.length} in all)` : shown;
}

/**
 * The first row's fate in words, without the way to change it (the page and the CLI add theirs):
 * "first row read as data (its values look like the rows below); columns column_1…column_4".
 * `chosenBy` says who chose it when the person did ("as --header yes says").
 */
export function headerSentence(h: HeaderUsed, columns: readonly string[], chosenBy: string): string {
  const why = h.choice === 'auto' ? h.reason : chosenBy;
  if (h.taken) return `first row read as column names (${why}): ${namesList(columns)}`;
  if (h.choice === 'auto' && h.verdict === 'unsure')
    return `first row read as data: Dowser could not tell whether it names the columns (${h.reason}); columns ${columnRange(columns)}`;
  return `first row read as data (${why}); columns ${columnRange(columns)}`;
}
