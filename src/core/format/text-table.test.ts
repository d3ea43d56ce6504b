import { describe, expect, it } from 'vitest';
import { formatTextTable } from './text-table';
import { cutToWidth, displayWidth, visible } from './visible';

describe('formatTextTable', () => {
  it('aligns columns, right-aligns numbers and shows NULL', () => {
    const out = formatTextTable({
      columns: ['id', 'name', 'total'],
      rows: [
        [1, 'Ada', 10.5],
        [22, null, null],
      ],
    });
    expect(out).toBe(
      ['id | name | total', '---+------+------', ' 1 | Ada  |  10.5', '22 | NULL |  NULL', '2 rows', ''].join('\n'),
    );
  });

  it('says when only the first rows are shown, and counts one row in the singular', () => {
    expect(formatTextTable({ columns: ['x'], rows: [[1]], truncated: true })).toMatch(
      /\nfirst 1 row \(more not shown\)\n$/,
    );
    expect(formatTextTable({ columns: ['x'], rows: [[1], [2]], truncated: true })).toMatch(
      /\nfirst 2 rows \(more not shown\)\n$/,
    );
    expect(formatTextTable({ columns: ['x'], rows: [[1]] })).toMatch(/\n1 row\n$/);
    expect(formatTextTable({ columns: ['x'], rows: [] })).toBe('x\n-\n0 rows\n');
  });

  it('cuts long cells with an ellipsis', () => {
    const out = formatTextTable({ columns: ['t'], rows: [['a'.repeat(100)]] }, { maxCellWidth: 10 });
    expect(out.split('\n')[2]).toBe('aaaaaaaaa…');
  });

  it('fits a maximum total width by shrinking the widest column', () => {
    const out = formatTextTable({ columns: ['id', 'text'], rows: [[1, 'x'.repeat(60)]] }, { maxWidth: 30 });
    for (const l of out.split('\n')) expect(l.length).toBeLessThanOrEqual(30);
    expect(out.split('\n')[2]).toMatch(/^ 1 \| x+…$/);
  });

  it('replaces control characters so data cannot drive the terminal', () => {
    const out = formatTextTable(
      { columns: ['bad\ncol'], rows: [['line1\nline2\ttab\r\x1b[2J\x07\u202eevil']] },
      { maxCellWidth: 200 },
    );
    const lines = out.split('\n');
    expect(lines).toHaveLength(5); // header, rule, one row, footer, final newline
    expect(lines[0]).toContain('bad\\ncol');
    expect(lines[2]).toContain('line1\\nline2\\ttab\\r\\x1b[2J\\x07\\u202eevil');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f\u202e]/);
  });

  it('shows blobs as hex, cut for large ones', () => {
    const out = formatTextTable(
      { columns: ['b'], rows: [[new Uint8Array([1, 2, 255])], [new Uint8Array(100)]] },
      { maxCellWidth: 200 },
    );
    expect(out).toContain('0x0102ff');
    expect(out).toContain(`0x${'00'.repeat(32)}…`);
  });

  it('aligns wide (CJK) characters by display width', () => {
    const out = formatTextTable({
      columns: ['名', 'x'],
      rows: [
        ['東京', 1],
        ['a', 2],
      ],
    });
    const withBar = out.split('\n').filter((l) => l.includes('|'));
    expect(withBar).toHaveLength(3);
    expect(new Set(withBar.map((l) => displayWidth(l.slice(0, l.indexOf('|')))))).toEqual(new Set([5]));
  });

  it('prints a footer only for results without columns', () => {
    expect(formatTextTable({ columns: [], rows: [] })).toBe('0 rows\n');
  });
});

describe('visible text helpers', () => {
  it('escapes controls but keeps ordinary unicode', () => {
    expect(visible('é 東京 👍 a\\b')).toBe('é 東京 👍 a\\b');
    expect(visible('\u0000\u009b\u2028')).toBe('\\x00\\x9b\\u2028');
  });

  it('cuts by display width', () => {
    expect(cutToWidth('東京都庁', 5)).toBe('東京…');
    expect(cutToWidth('abc', 3)).toBe('abc');
    expect(displayWidth('e\u0301')).toBe(1);
  });
});
