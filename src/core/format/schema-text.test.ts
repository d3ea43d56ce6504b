import { describe, expect, it } from 'vitest';
import type { ColumnStats, OpenReport, Schema } from '../types';
import { foreignKeyText, formatBytes, formatSchemaText, formatValue, reportText, statsSummary } from './schema-text';

const base: ColumnStats = {
  table: 't',
  column: 'c',
  rowsScanned: 10,
  approximate: false,
  nullCount: 0,
  distinctCount: 10,
  storageClasses: { integer: 10 },
  min: 1,
  max: 10,
  samples: [],
  categories: null,
  avgLength: null,
  looksLikeDate: false,
};

const report: OpenReport = {
  id: 'x',
  name: 'shop.sqlite',
  sizeBytes: 8192,
  sqliteVersion: '3.50.0',
  pageSize: 4096,
  pageCount: 2,
  quickCheck: ['ok'],
  issues: [{ level: 'warning', code: 'wal_without_sidecar', message: 'WAL\nmode' }],
  openMs: 1,
};

describe('statsSummary', () => {
  it('gives nulls, distinct count and the range of numbers', () => {
    expect(statsSummary({ ...base, nullCount: 1 })).toBe('1 null, 10 distinct, min 1, max 10');
  });

  it('lists categories with counts, at most five', () => {
    const categories = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((value, i) => ({ value, count: 10 - i }));
    expect(
      statsSummary({ ...base, distinctCount: 7, categories, min: 'a', max: 'g', storageClasses: { text: 49 } }),
    ).toBe("0 nulls, 7 distinct, values 'a' ×10, 'b' ×9, 'c' ×8, 'd' ×7, 'e' ×6, … 2 more");
  });

  it('gives samples for text, dates as a range, and marks approximate and mixed columns', () => {
    expect(
      statsSummary({ ...base, min: 'a', max: 'z', samples: ['a', 'b'], storageClasses: { text: 9, integer: 1 } }),
    ).toBe("0 nulls, 10 distinct, e.g. 'a', 'b', stored as text 9×, integer 1×");
    expect(
      statsSummary({
        ...base,
        min: '2020-01-01',
        max: '2021-01-01',
        looksLikeDate: true,
        approximate: true,
        rowsScanned: 1000,
      }),
    ).toBe("0 nulls, 10 distinct, dates from '2020-01-01' to '2021-01-01', counted on the first 1000 rows");
    expect(statsSummary({ ...base, rowsScanned: 0 })).toBe('no rows');
  });
});

describe('formatting helpers', () => {
  it('formatValue quotes, cuts and escapes text; shows blobs as hex', () => {
    expect(formatValue('a\x1b[31m')).toBe("'a\\x1b[31m'");
    expect(formatValue('x'.repeat(50))).toBe(`'${'x'.repeat(29)}…'`);
    expect(formatValue(new Uint8Array([1, 2]))).toBe('0x0102');
    expect(formatValue(null)).toBe('NULL');
  });

  it('formatBytes uses binary units', () => {
    expect([formatBytes(500), formatBytes(2048), formatBytes(5 * 1024 ** 3)]).toEqual(['500 B', '2.0 KiB', '5.0 GiB']);
  });

  it('foreignKeyText writes table.col -> ref.col, grouping composite keys', () => {
    expect(
      foreignKeyText({ id: 0, table: 'a', from: ['x'], refTable: 'b', to: ['y'], onDelete: '', onUpdate: '' }),
    ).toBe('a.x -> b.y');
    expect(
      foreignKeyText({
        id: 0,
        table: 'a',
        from: ['x', 'z'],
        refTable: 'b',
        to: ['y', 'w'],
        onDelete: '',
        onUpdate: '',
      }),
    ).toBe('a.(x, z) -> b.(y, w)');
  });

  it('reportText gives the facts and each issue, its lines indented and escaped', () => {
    expect(reportText(report)).toBe(
      'shop.sqlite: 8.0 KiB, SQLite 3.50.0, 2 pages of 4096 bytes, integrity ok\nwarning [wal_without_sidecar]: WAL\n    mode\n',
    );
    const long = {
      ...report,
      issues: [
        {
          level: 'error' as const,
          code: 'quick_check_failed',
          message: Array.from({ length: 10 }, (_, i) => `line ${i}\x1b`).join('\n'),
        },
      ],
    };
    expect(reportText(long).split('\n').slice(1, -1)).toEqual([
      'error [quick_check_failed]: line 0\\x1b',
      ...[1, 2, 3, 4, 5].map((i) => `    line ${i}\\x1b`),
      '    … 4 more lines',
    ]);
  });
});

describe('formatSchemaText', () => {
  const schema: Schema = {
    tables: [
      {
        name: 'evil\x1b]0;title\x07',
        kind: 'table',
        sql: null,
        primaryKey: ['id'],
        withoutRowid: false,
        foreignKeys: [],
        indexes: [],
        rowCount: 1,
        columns: [
          {
            name: 'id',
            declaredType: '',
            affinity: 'BLOB',
            notNull: false,
            defaultValue: null,
            pkIndex: 1,
            hidden: false,
          },
        ],
      },
    ],
    foreignKeys: [],
  };

  it('never passes control characters from names through', () => {
    const text = formatSchemaText(report, schema, null);
    expect(text).toContain('table evil\\x1b]0;title\\x07: 1 row');
    expect(text).not.toContain('\x1b');
    expect(text).toContain('    id  (no type)  PK');
    expect(text).not.toContain('statistics:');
  });

  it('adds a statistics block, with failures shown as such', () => {
    const text = formatSchemaText(report, schema, [{ table: schema.tables[0].name, column: 'id', error: 'boom' }]);
    expect(text).toContain('  statistics:\n    id  failed: boom\n');
  });
});
