// A change to a chart, as the page's controls and the CLI's flags make it.
import { describe, expect, it } from 'vitest';
import type { ChartChoice } from './choose-chart';
import { applyChartChange, isAggregate, isChartType } from './chart-options';

describe('applyChartChange', () => {
  const grouped: ChartChoice = { type: 'grouped-bar', x: 0, y: 2, series: 1, aggregate: 'sum', reason: 'r' };

  it('keeps what the change leaves out', () => {
    expect(applyChartChange(grouped, { y: 3 }, 4)).toEqual({ ...grouped, y: 3 });
  });

  it('drops the series for a type that draws none, keeps it for one that does', () => {
    expect(applyChartChange(grouped, { type: 'bar' }, 4)).not.toHaveProperty('series');
    expect(applyChartChange(grouped, { type: 'line' }, 4).series).toBe(1);
  });

  it('starts a type chosen where none was proposed from the first two columns', () => {
    const none: ChartChoice = { type: 'none', reason: 'No column holds numbers to draw.' };
    expect(applyChartChange(none, { type: 'scatter' }, 3)).toMatchObject({ type: 'scatter', x: 0, y: 1 });
    expect(applyChartChange(none, { type: 'histogram' }, 1)).toMatchObject({ x: 0, y: 0 });
  });

  it('knows the types and aggregations by name', () => {
    expect([isChartType('grouped-bar'), isChartType('pie'), isChartType('none')]).toEqual([true, false, false]);
    expect([isAggregate('mean'), isAggregate('median')]).toEqual([true, false]);
  });
});
