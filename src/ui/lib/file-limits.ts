// Files the page imports are refused by their size (File.size) before a byte is read: reading
// and parsing one the page refuses anyway froze it for seconds (issue item 11). Accepted files
// are parsed in a worker (services.parseFiles). Sizes in decimal MB, as file managers show them.

import { MAX_FILE_CHARS } from '../../core/eval/question-file';

export interface FileLimit {
  /** "a run file": what the message calls one such file. */
  what: string;
  bytes: number;
}

export const RUN_FILE_LIMIT: FileLimit = { what: 'a run file', bytes: 50_000_000 };
/** Decoded as UTF-8, a file never has more characters than bytes: within this, the parser's own limit holds. */
export const QUESTION_FILE_LIMIT: FileLimit = { what: 'a question file', bytes: MAX_FILE_CHARS };
/** BIRD's description files are a few kB; anything this big is not one. */
export const DESCRIPTION_FILE_LIMIT: FileLimit = { what: 'a description file', bytes: 10_000_000 };

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Why `file` is refused ("62.3 MB, more than the 50 MB a run file may have"), or null when it is not. */
export function sizeRefusal(file: Pick<Blob, 'size'>, limit: FileLimit): string | null {
  if (file.size <= limit.bytes) return null;
  return `${mb(file.size)}, more than the ${limit.bytes / 1e6} MB ${limit.what} may have`;
}
