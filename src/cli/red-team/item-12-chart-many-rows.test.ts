// Red team, issue 35, item 12: `dowser sql --chart` on 200,000 rows ended in "Maximum call stack
// size exceeded". A row-sized array spread into a call (`Math.max(...widths)`) puts every element
// on the stack; past about 100,000 it overflows. The text table printed with the chart was the
// one that did (core/format/text-table.ts); the chart's own code had the same pattern over its
// points. Neither spreads now.
// @vitest-environment node

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartData, describeChart, MAX_POINTS } from '../../core/charts/chart-data';
import { chooseChart } from '../../core/charts/choose-chart';
import { formatTextTable } from '../../core/format/text-table';
import type { SqlValue } from '../../core/types';
import { runCli } from '../test-support/run-cli';
import { tempFolder } from '../../test-support/temp-folder';
import { manyRowsDb, parseSvgStrictly } from './chart-fixtures';

const ROWS = 200_000;
const folder = tempFolder('dowser-red-team-12-');
let db: string;
beforeAll(async () => {
  db = folder.write('points.sqlite', await manyRowsDb(ROWS));
});
afterAll(() => folder.remove());

/** `n` rows of (x, y) as the engine returns them. */
const rowsOf = (n: number): SqlValue[][] => Array.from({ length: n }, (_, i) => [i * 0.5, (i * 7919) % 1000]);

describe('red team 35, item 12: charts of results of any size', () => {
  it('dowser sql --chart on 200,000 rows prints them and writes the chart of 2,000 of them', async () => {
    const file = join(folder.dir, 'points.svg');
    const r = await runCli(['sql', '--db', db, 'SELECT x, y FROM points', '--max-rows', String(ROWS), '--chart', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.endsWith(`\n${ROWS} rows\n`)).toBe(true);
    expect(r.stderr).toContain(`Scatter plot of y by x: ${MAX_POINTS} rows, x from 0.5 to 99950.5`);
    expect(r.stderr).toContain(`(${MAX_POINTS} of ${ROWS} points drawn)`);
    const svg = parseSvgStrictly(readFileSync(file, 'utf8'));
    expect(svg).not.toBeNull();
    expect(svg!.querySelectorAll('circle')).toHaveLength(MAX_POINTS);
  });

  it('a million rows: the text table and the chart data of each type are made', () => {
    const rows = rowsOf(1_000_000);
    const table = formatTextTable({ columns: ['x', 'y'], rows });
    expect(table.endsWith('\n1000000 rows\n')).toBe(true);
    expect(chooseChart(['x', 'y'], rows).type).toBe('scatter');
    for (const type of ['scatter', 'histogram', 'line', 'bar'] as const) {
      const data = chartData(['x', 'y'], rows, { type, x: 0, y: 1, reason: '' });
      expect(data.points.length, type).toBeLessThanOrEqual(MAX_POINTS);
      expect(data.description, type).toMatch(/\d/);
    }
  });

  it('a description of more points than a chart draws is still written (its range found by a loop)', () => {
    const points = rowsOf(300_000).map(([x, y]) => ({ x: x as number, y: y as number }));
    const description = describeChart({
      type: 'scatter',
      xLabel: 'x',
      yLabel: 'y',
      xIsDate: false,
      points,
      skipped: 0,
      sampled: false,
    });
    expect(description).toBe('Scatter plot of y by x: 300000 rows, x from 0 to 149999.5.');
  });
});
