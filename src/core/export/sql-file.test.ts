import { describe, expect, it } from 'vitest';
import { tokenize } from '../sql/tokens';
import { commentText, sqlFileText } from './sql-file';

const meta = { database: 'shop.sqlite', exportedAt: '2025-01-02T03:04:05.000Z' };

/** Everything SQLite would execute in the file: its non-comment, non-space tokens. */
const code = (text: string) =>
  tokenize(text)
    .filter((t) => t.kind !== 'comment' && t.kind !== 'space')
    .map((t) => t.text)
    .join(' ');

describe('sqlFileText', () => {
  it('puts a comment header with database and date above the statement', () => {
    expect(sqlFileText('SELECT 1', meta)).toBe(
      '-- Exported from Dowser\n-- Database: shop.sqlite\n-- Exported at: 2025-01-02T03:04:05.000Z\n\nSELECT 1;\n',
    );
  });

  it('includes the question when there is one', () => {
    expect(sqlFileText('SELECT 1;', { ...meta, question: 'How many?' })).toContain('\n-- Question: How many?\n');
    expect(sqlFileText('SELECT 1;', { ...meta, question: '  ' })).not.toContain('Question');
  });

  it('keeps a question with line breaks inside the comment', () => {
    for (const question of [
      'x\nDROP TABLE t;',
      'x\rDROP TABLE t;',
      'x\r\nDROP TABLE t;',
      'x\u2028DROP TABLE t;',
      'x\u0085DROP TABLE t;',
    ]) {
      const text = sqlFileText('SELECT 1', { ...meta, question, database: 'evil\nDELETE FROM t;' });
      expect(code(text)).toBe('SELECT 1 ;');
      expect(
        text
          .split('\n')
          .slice(0, 4)
          .every((line) => line.startsWith('-- ')),
      ).toBe(true);
    }
  });

  it('does not add a second semicolon, and keeps it out of a trailing comment', () => {
    expect(sqlFileText('SELECT 1;\n', meta).endsWith('\n\nSELECT 1;\n')).toBe(true);
    expect(sqlFileText('SELECT 1 -- note', meta).endsWith('SELECT 1 -- note\n;\n')).toBe(true);
    expect(sqlFileText('SELECT 1 /* note */', meta).endsWith('SELECT 1 /* note */;\n')).toBe(true);
    expect(sqlFileText("SELECT ';'", meta).endsWith("SELECT ';';\n")).toBe(true);
  });

  it('keeps the statement text itself unchanged', () => {
    const sql = 'SELECT "a b", \'x\ny\' FROM [t] -- c\nWHERE 1';
    expect(sqlFileText(sql, meta)).toContain(sql);
  });
});

describe('commentText', () => {
  it('turns control characters and line separators into spaces', () => {
    expect(commentText('a\n\nb\tc\u001b[31md\u2029e')).toBe('a b c [31md e');
  });
});
