// `--chart` of `dowser sql` and `dowser ask` (issue 24): the page's proposed chart written as a
// standalone SVG that parses as XML, changed by --chart-type/--x/--y/--series/--values, a clear
// message where no chart suits, and the flags checked before any work starts.
// @vitest-environment node
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDb, SHOP_SQL } from '../test-support/build-db';
import { runCli } from './test-support/run-cli';

let dir: string;
let shop: string;
const hostile = 'Lyon</text><script>alert(1)</script> & "co"';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-chart-'));
  shop = join(dir, 'shop.sqlite');
  writeFileSync(
    shop,
    await buildDb(
      SHOP_SQL +
        `CREATE TABLE sales (city TEXT, channel TEXT, month TEXT, amount REAL);
         INSERT INTO sales VALUES ('Paris','web','2024-01',10),('Paris','store','2024-02',4),
           ('Oslo','web','2024-01',7),('Oslo','store','2024-02',2),('${hostile.replace(/'/g, "''")}','web','2024-03',5);`,
    ),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// jsdom ships no types; only its XML parser is used here.
const { JSDOM } = (await import('jsdom' as string)) as { JSDOM: new (html: string) => { window: typeof globalThis } };

/** The file as an SVG document, read by an XML parser as any viewer would. */
function readSvg(path: string): Document {
  const { window } = new JSDOM('');
  const doc = new window.DOMParser().parseFromString(readFileSync(path, 'utf8'), 'image/svg+xml');
  expect(doc.querySelector('parsererror')).toBeNull();
  expect(doc.documentElement.namespaceURI).toBe('http://www.w3.org/2000/svg');
  return doc;
}

describe('dowser sql --chart', () => {
  it('writes the proposed bar chart: one bar per row, database text as text, the reason on stderr', async () => {
    const file = join(dir, 'bar.svg');
    const r = await runCli([
      'sql',
      '--db',
      shop,
      'SELECT city, sum(amount) AS total FROM sales GROUP BY city',
      '--chart',
      file,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('3 rows'); // the rows are printed as ever
    expect(r.stderr).toMatch(
      /^chart written to .*bar\.svg \(proposed: total for each city\.\)\n {2}Bar chart of total by city/,
    );
    const svg = readSvg(file);
    expect(svg.querySelectorAll('rect')).toHaveLength(3);
    expect(svg.querySelector('script')).toBeNull();
    expect([...svg.querySelectorAll('text')].map((t) => t.textContent)).toContain(hostile);
    expect(svg.querySelector('title')?.textContent).toMatch(/^Bar chart of total by city: 3 points/);
    expect(svg.documentElement.getAttribute('role')).toBe('img');
  });

  it('draws what the flags choose, with a legend for the series', async () => {
    const file = join(dir, 'grouped.svg');
    const r = await runCli([
      'sql',
      '--db',
      shop,
      'SELECT city, channel, amount FROM sales',
      '--chart',
      file,
      '--chart-type',
      'grouped-bar',
      '--x',
      'CITY', // a name matches without case when only one column has it
      '--y',
      '3',
      '--series',
      'channel',
      '--values',
      'mean',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('(as chosen)');
    expect(r.stderr).toContain('Grouped bar chart of mean of amount by city, one colour per channel: 5 points');
    const svg = readSvg(file);
    const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(['web', 'store']));
    // The legend's swatches sit above the chart, inside the file.
    expect(Number(svg.documentElement.getAttribute('viewBox')!.split(' ')[1])).toBeLessThan(0);
  });

  it('says why and writes nothing when no chart suits, exit 1', async () => {
    const file = join(dir, 'none.svg');
    const r = await runCli(['sql', '--db', shop, 'SELECT name FROM customers', '--chart', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('no chart written: No column holds numbers to draw. Choose one with --chart-type.\n');
    expect(existsSync(file)).toBe(false);
  });

  it('refuses wrong flags before running anything (exit 2)', async () => {
    const sql = 'SELECT city, amount FROM sales';
    const cases: Array<[string[], RegExp]> = [
      [['--x', 'city'], /--x chooses the chart of --chart <file.svg>: give --chart too/],
      [['--chart', 'c.svg', '--chart-type', 'pie'], /--chart-type is one of bar, grouped-bar, .*, not "pie"/],
      [['--chart', 'c.svg', '--values', 'median'], /--values is one of none, sum, mean, count, not "median"/],
      [
        ['--chart', join(dir, 'c.svg'), '--x', 'town'],
        /--x "town" is not a column of the result; its columns: city, amount/,
      ],
    ];
    for (const [flags, message] of cases) {
      const r = await runCli(['sql', '--db', shop, sql, ...flags]);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe('dowser ask --chart', () => {
  it('charts the answer’s whole result, not only the rows printed (the scripted demo on its database)', async () => {
    const file = join(dir, 'answer.svg');
    const r = await runCli([
      'ask',
      '--db',
      'public/demo.sqlite',
      '--provider',
      'scripted',
      '--question',
      (await import('../core/agent/demo-script')).DEMO_QUESTION,
      '--max-rows',
      '2',
      '--chart',
      file,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('first 2 rows (more not shown)\n(5 rows in all)');
    expect(r.stderr).toMatch(/chart written to .*answer\.svg \(proposed: total_spent for each customer\.\)/);
    // Five customers answer the demo question; the final event carried two of them.
    expect(readSvg(file).querySelectorAll('rect')).toHaveLength(5);
  });

  it('is not a flag of dowser chat, where questions come one by one', async () => {
    const r = await runCli(['chat', '--db', shop, '--provider', 'scripted', '--chart', 'c.svg']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--chart is for dowser ask/);
  });
});
