import { displayText } from '../../core/format/visible';
import type { SqlValue } from '../../core/types';

/** A name or one-line text from the database or a model: controls and bidi marks shown as ⟨U+…⟩. */
export const shown = (text: string): string => displayText(text);

/** Multi-line text (cells, observations, SQL): the same, with line breaks and tabs kept. */
export const shownLines = (text: string): string => displayText(text, { lineBreaks: 'keep' });

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export function formatCount(n: number | null | undefined): string {
  return n == null ? '?' : n.toLocaleString('en-US');
}

export function hexPreview(bytes: Uint8Array, max = 8): string {
  const hex = Array.from(bytes.subarray(0, max), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > max ? `${hex} …` : hex;
}

/** Short text form of a value for statistics and chips (never HTML: rendered as text). */
export function valueText(v: SqlValue, maxLen = 60): string {
  if (v === null) return 'NULL';
  if (v instanceof Uint8Array) return `BLOB ${formatBytes(v.length)}`;
  const s = String(v);
  return shown(s.length > maxLen ? s.slice(0, maxLen - 1) + '…' : s);
}
