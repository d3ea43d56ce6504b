// A result as a chart (issue 24): the proposed chart with its reason, and every choice the person
// can change (type, x, y, series, aggregation). The points and the words come from core; Plot
// draws them (loaded with this view). The grid stays the accessible table of the same rows.

import { useEffect, useMemo, useRef, useState } from 'react';
import { chartData, type ChartData } from '../../core/charts/chart-data';
import { chooseChart, type Aggregate, type ChartChoice, type ChartType } from '../../core/charts/choose-chart';
import {
  AGGREGATES,
  applyChartChange,
  CHART_TYPES,
  TYPES_WITH_SERIES,
  type ChartChange,
} from '../../core/charts/chart-options';
import type { QueryResult } from '../../core/types';
import { describeError } from '../../core/errors';
import { baseName, downloadText } from '../lib/download';
import { shown } from '../lib/format';
import { getServices } from '../services/current';

const TYPE_NAMES: Record<ChartType, string> = {
  bar: 'Bars',
  'grouped-bar': 'Grouped bars',
  'stacked-bar': 'Stacked bars',
  line: 'Line',
  scatter: 'Scatter',
  histogram: 'Histogram',
};
const AGGREGATE_NAMES: Record<Aggregate, string> = { none: 'as is', sum: 'sum', mean: 'mean', count: 'count' };

type Drawn =
  | { status: 'drawing' }
  | { status: 'done'; chart: SVGSVGElement | HTMLElement }
  | { status: 'failed'; message: string };

/** The page's colours, read when the chart is drawn (they follow the light or dark scheme). */
const cssColour = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

export default function ChartView({
  result,
  dbName,
  compact = false,
}: {
  result: QueryResult;
  dbName: string;
  /** In the answer card: the proposed chart only, smaller, without the controls. */
  compact?: boolean;
}) {
  const proposed = useMemo(() => chooseChart(result.columns, result.rows), [result]);
  const [choice, setChoice] = useState<ChartChoice>(proposed);
  const type = choice.type === 'none' ? null : choice.type;
  const data: ChartData | null = useMemo(
    () => (type ? chartData(result.columns, result.rows, { ...choice, type }) : null),
    [result, choice, type],
  );
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState<Drawn>({ status: 'drawing' });
  const [width, setWidth] = useState(640);

  useEffect(() => {
    const el = box.current;
    // Without ResizeObserver (old browsers, jsdom) the chart keeps its first width.
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(320, Math.floor(entry.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!data) return;
    let live = true;
    setDrawn({ status: 'drawing' });
    // Through a promise, so a failure to load ends as the view's message, not an uncaught error.
    Promise.resolve()
      .then(() => getServices().loadCharts())
      .then(({ drawChart }) => {
        if (!live) return;
        const chart = drawChart(data, { width, height: compact ? 260 : 360, accent: cssColour('--accent', '#1f6f5c') });
        box.current?.replaceChildren(chart);
        setDrawn({ status: 'done', chart });
      })
      .catch((e) => live && setDrawn({ status: 'failed', message: describeError(e) }));
    return () => {
      live = false;
    };
  }, [data, width, compact]);

  const set = (change: ChartChange) => setChoice((c) => applyChartChange(c, change, result.columns.length));
  const columnSelect = (
    label: string,
    value: number | undefined,
    onChange: (v: number | undefined) => void,
    optional = false,
  ) => (
    <label className="small">
      {label}{' '}
      <select
        aria-label={label}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      >
        {optional && <option value="">none</option>}
        {result.columns.map((c, i) => (
          <option key={i} value={i}>
            {shown(c)}
          </option>
        ))}
      </select>
    </label>
  );

  const [saveError, setSaveError] = useState<string | null>(null);
  const save = async (kind: 'svg' | 'png') => {
    if (drawn.status !== 'done' || !data) return;
    setSaveError(null);
    try {
      const { svgFile } = await getServices().loadCharts();
      const colours = { ink: cssColour('--text', '#1d1d1b'), paper: cssColour('--panel', '#ffffff') };
      const svg = svgFile(drawn.chart, data.description, colours);
      const name = `${baseName(dbName)}-chart`;
      if (kind === 'svg') downloadText(`${name}.svg`, svg, 'image/svg+xml');
      else downloadText(`${name}.png`, await pngOf(svg), 'image/png');
    } catch (e) {
      setSaveError(`The ${kind.toUpperCase()} could not be made: ${describeError(e)}`);
    }
  };

  return (
    <div
      className={compact ? 'chart-view compact' : 'chart-view'}
      data-testid={compact ? 'answer-chart' : 'chart-view'}
    >
      {!compact && (
        <div className="chart-controls">
          <label className="small">
            Chart{' '}
            <select
              aria-label="Chart type"
              value={choice.type}
              onChange={(e) => {
                set({ type: e.target.value as ChartType | 'none' });
              }}
            >
              <option value="none">none</option>
              {CHART_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_NAMES[t]}
                </option>
              ))}
            </select>
          </label>
          {type && columnSelect('x', choice.x, (x) => set({ x: x ?? 0 }))}
          {type && type !== 'histogram' && columnSelect('y', choice.y, (y) => set({ y: y ?? 0 }))}
          {type &&
            TYPES_WITH_SERIES.includes(type) &&
            columnSelect('series', choice.series, (series) => set({ series }), true)}
          {type && type !== 'histogram' && type !== 'scatter' && (
            <label className="small">
              values{' '}
              <select
                aria-label="values"
                value={choice.aggregate ?? 'none'}
                onChange={(e) => set({ aggregate: e.target.value as Aggregate })}
              >
                {AGGREGATES.map((a) => (
                  <option key={a} value={a}>
                    {AGGREGATE_NAMES[a]}
                  </option>
                ))}
              </select>
            </label>
          )}
          {choice !== proposed && (
            <button type="button" className="link small" onClick={() => setChoice(proposed)}>
              Back to the proposed chart
            </button>
          )}
          {drawn.status === 'done' && type && (
            <span className="row gap">
              <button type="button" className="small secondary" onClick={() => void save('svg')}>
                SVG
              </button>
              <button type="button" className="small secondary" onClick={() => void save('png')}>
                PNG
              </button>
            </span>
          )}
        </div>
      )}
      {!compact && (
        <p className="muted small" data-testid="chart-reason">
          {choice === proposed ? `Proposed: ${shown(proposed.reason)}` : 'Your choice.'}
          {result.truncated ? ' From the rows held only (Fetch more, or sort and filter in SQLite, for the rest).' : ''}
        </p>
      )}
      {type && data && (
        <>
          <div
            className="chart-box"
            ref={box}
            data-testid={compact ? 'answer-chart-box' : 'chart'}
            data-type={type}
            aria-busy={drawn.status === 'drawing'}
          />
          <p className="small" data-testid="chart-description">
            {shown(data.description)}
            {data.skipped > 0 && !data.sampled
              ? ` ${data.skipped} row${data.skipped === 1 ? '' : 's'} without a number left out.`
              : ''}
          </p>
          {saveError && (
            <p className="error" role="alert">
              {saveError}
            </p>
          )}
          {drawn.status === 'failed' && (
            <p className="error" role="alert">
              The chart could not be drawn: {drawn.message}
            </p>
          )}
        </>
      )}
    </div>
  );
}

/** The SVG drawn on a canvas at twice its size, as PNG bytes. */
async function pngOf(svg: string): Promise<Uint8Array<ArrayBuffer>> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth * 2;
    canvas.height = image.naturalHeight * 2;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot draw on a canvas.');
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('The browser could not make the PNG.');
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    URL.revokeObjectURL(url);
  }
}
