/* eslint-disable no-control-regex -- these tests look for control characters */
import { describe, expect, it } from 'vitest';
import { displayText, escapeJsonForDisplay, visible, visibleKeepingLines } from './visible';

const SPOOFS = [
  'RTL\u202eexe.txt',
  'a\u2066b\u2069',
  'x\u200by',
  'bom\ufeff',
  'esc\x1b]0;t\x07',
  'c1\u009b2J',
  'ls\u2028ps\u2029',
];

describe('display neutralising (issue 11, item 10)', () => {
  it('shows bidi, zero-width and control characters as ⟨U+XXXX⟩ marks in the page', () => {
    expect(displayText('RTL\u202eexe.txt')).toBe('RTL⟨U+202E⟩exe.txt');
    expect(displayText('a\nb\tc')).toBe('a⟨U+000A⟩b⟨U+0009⟩c');
    expect(displayText('a\nb\tc\r', { lineBreaks: 'keep' })).toBe('a\nb\tc⟨U+000D⟩');
    for (const s of SPOOFS)
      expect(displayText(s)).not.toMatch(/[\x00-\x1f\x7f-\x9f\u200b\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/);
  });

  it('leaves ordinary text, emoji joiners and other scripts alone', () => {
    for (const s of ['plain', 'Zürich', '👩‍💻', 'می‌خواهم', '東京']) expect(displayText(s)).toBe(s);
  });

  it('terminal forms: visible escapes all, visibleKeepingLines keeps tab, LF and CR LF', () => {
    expect(visible('a\u202eb\n')).toBe('a\\u202eb\\n');
    expect(visibleKeepingLines('a\r\nb\rc\nd\te\x1b[2J')).toBe('a\r\nb\\rc\nd\te\\x1b[2J');
  });

  it('JSON for display keeps its layout and its values', () => {
    const value = { name: 'RTL\u202eexe.txt', note: 'ls\u2028ps\u2029 c1\u0085 del\x7f esc\x1b' };
    const json = escapeJsonForDisplay(JSON.stringify(value, null, 2));
    expect(json).not.toMatch(/[\x7f-\x9f\u202e\u2028\u2029\x1b]/);
    expect(json.split('\n')).toHaveLength(4);
    expect(JSON.parse(json)).toEqual(value);
  });
});
