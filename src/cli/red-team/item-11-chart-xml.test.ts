// Red team, issue 35, item 11: a chart whose labels hold U+0001 or U+000B was saved by the page
// as an SVG that is not XML (the browser's XMLSerializer writes such characters as they are), and
// its PNG, drawn from that SVG, failed. The page's file and the CLI's now go through one writer
// (adapters/plot/svg-xml.ts): characters XML cannot hold are written as the page shows them.
// @vitest-environment node

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svgFile, drawChart } from '../../adapters/plot/draw-chart';
import { chartData } from '../../core/charts/chart-data';
import { buildDb } from '../../test-support/build-db';
import { runCli } from '../test-support/run-cli';
import { tempFolder } from '../../test-support/temp-folder';
import { jsdomWindow, LABELS_SQL, parseSvgStrictly, SHOWN_LABELS, XML_FORBIDDEN_LABELS } from './chart-fixtures';

const folder = tempFolder('dowser-red-team-11-');
let db: string;
beforeAll(async () => {
  db = folder.write('labels.sqlite', await buildDb(LABELS_SQL));
});
afterAll(() => folder.remove());

/** The x-axis labels of a chart file, as an XML reader reads them. */
const tickLabels = (doc: Document) =>
  [...doc.querySelectorAll('text')].map((t) => t.textContent ?? '').filter((t) => /^(soh|vt|nonchar|lone)/.test(t));

describe('red team 35, item 11: chart files whose labels hold characters XML forbids', () => {
  it("the page's SVG download (drawn in a browser's DOM) parses as XML, each character shown as the page shows it", () => {
    const window = jsdomWindow();
    // The page runs where the browser gives XMLSerializer; jsdom's writes as Chromium's does.
    const globals = globalThis as { XMLSerializer?: unknown };
    const had = globals.XMLSerializer;
    globals.XMLSerializer = window.XMLSerializer;
    try {
      const rows = XML_FORBIDDEN_LABELS.map((label, i) => [label, i + 1]);
      const data = chartData(['label', 'n'], rows, { type: 'bar', x: 0, y: 1, reason: '' });
      const chart = drawChart(data, { width: 640, height: 360, accent: '#1f6f5c', document: window.document });
      const file = svgFile(chart, data.description, { ink: '#111111', paper: '#ffffff' });
      const doc = parseSvgStrictly(file);
      expect(doc, 'the SVG is well-formed XML').not.toBeNull();
      expect(tickLabels(doc!)).toEqual([...SHOWN_LABELS]);
      expect(doc!.querySelector('title')?.textContent).toContain('soh⟨U+0001⟩');
    } finally {
      globals.XMLSerializer = had;
    }
  });

  it("the CLI's --chart file parses too, and writes the labels as the page's file does", async () => {
    const file = join(folder.dir, 'labels.svg');
    const r = await runCli(['sql', '--db', db, 'SELECT label, n FROM labels', '--chart', file]);
    expect(r.code, r.stderr).toBe(0);
    const doc = parseSvgStrictly(readFileSync(file, 'utf8'));
    expect(doc, 'the SVG is well-formed XML').not.toBeNull();
    // SQLite's UTF-8 holds no lone surrogate: the three others, written as in the page's file.
    expect(tickLabels(doc!)).toEqual(SHOWN_LABELS.slice(0, 3));
  });
});
