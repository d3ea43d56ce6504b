// search_value through the server's own trigram index (issue 36): a column with a pg_trgm index
// is not read into the value index (no memory, no read) and each search asks the server; the
// other columns are indexed as before. On a throw-away cluster; CI installs PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unmark } from '../../core/privacy/marks';
import { databaseUrl, runSql } from '../../../scripts/pg-cluster.mjs';
import { pgSkipReason, usePgCluster } from '../../test-support/pg-cluster';
import { PostgresEngine } from './engine';

// Tickets as a help desk writes them: subjects repeat, bodies are free text, every body says "order".
const TICKETS = `
CREATE EXTENSION pg_trgm;
CREATE TABLE tickets (id int PRIMARY KEY, subject text, body text, city text, opened date);
INSERT INTO tickets
  SELECT g,
         (ARRAY['Parcel arrived damaged', 'Refund not received', 'Wrong size sent', 'Invoice missing VAT number'])[1 + g % 4],
         'Order ' || (100000 + g) || ': ' || (ARRAY['the courier left it at the door', 'refund asked twice', 'box was crushed', 'please call back after 5pm'])[1 + (g * 7) % 4],
         (ARRAY['Oslo', 'Lima', 'Pune'])[1 + g % 3],
         DATE '2024-01-01' + g % 300
    FROM generate_series(1, 3000) g;
CREATE INDEX tickets_body_trgm ON tickets USING gin (body gin_trgm_ops);
CREATE INDEX tickets_subject_trgm ON tickets USING gist (subject gist_trgm_ops);
CREATE TABLE parcels (ref text, weight int);
INSERT INTO parcels SELECT 'PK-' || (7000 + g) || '-B', g % 20 FROM generate_series(1, 3000) g;
CREATE INDEX parcels_ref_trgm ON parcels USING gin (ref gin_trgm_ops);
ANALYZE parcels;
ANALYZE tickets;
CREATE TABLE notes (id int PRIMARY KEY, note text);
INSERT INTO notes
  SELECT g, CASE WHEN g % 40000 = 7 THEN 'lost in the flood, box ' || g
                 ELSE (ARRAY['refund asked twice', 'courier late again', 'box was crushed', 'call back after 5pm'])[1 + g % 4] || ' #' || g % 97 END
    FROM generate_series(1, 200000) g;
CREATE INDEX notes_note_trgm ON notes USING gin (note gin_trgm_ops);
ANALYZE notes;
`;

describe.skipIf(pgSkipReason)('search_value through pg_trgm', () => {
  const cluster = usePgCluster();
  const engine = new PostgresEngine();
  const seen = async (args: unknown) => unmark((await engine.callTool('t', 'search_value', args)).observation);

  beforeAll(async () => {
    const c = cluster.get();
    await runSql(c, 'CREATE DATABASE helpdesk');
    await runSql(c, TICKETS, 'helpdesk');
    await engine.connect({ id: 't', target: { url: databaseUrl(c, 'helpdesk'), env: {} } });
  }, 60_000);
  afterAll(() => engine.closeAll());

  it('finds the columns with a trigram index when reading the schema', async () => {
    const tickets = (await engine.introspect('t')).tables.find((t) => t.name === 'tickets')!;
    const index = Object.fromEntries(tickets.columns.map((c) => [c.name, c.textIndex ?? null]));
    expect(index).toEqual({ id: null, subject: 'trigram', body: 'trigram', city: null, opened: null });
  });

  it('holds none of their values, and searches them on the server: as asked, any case, contained', async () => {
    const summary = await engine.buildTools('t');
    // Only the three cities are held: subjects, bodies and notes stay on the server.
    expect(summary.valuesIndexed).toBe(3);

    const exact = await seen({ query: 'Refund not received' });
    expect(exact).toContain('"Refund not received" in tickets.subject (750 rows)');
    const cased = await seen({ query: 'refund not received' });
    expect(cased).toContain('"Refund not received" in tickets.subject (750 rows; differs only in case');
    const contained = await seen({ query: 'crushed', column: 'body' });
    expect(contained).toMatch(/"Order \d+: box was crushed" in tickets\.body \(1 row; contains it/);
    // Only by substring there (similarity would read most of the index): the model is told to shorten it.
    const typo = await seen({ query: 'Parcel arived damagd', table: 'tickets', column: 'subject' });
    expect(typo).toContain('No values match "Parcel arived damagd" in tickets.subject.');
    expect(typo).toContain('tickets.subject was searched in the database for values containing it (any case)');
    expect(await seen({ query: 'Parcel', column: 'subject' })).toContain(
      '"Parcel arrived damaged" in tickets.subject (750 rows; starts with it)',
    );
    // A word every body holds: the server stopped counting, and the observation says so.
    expect(await seen({ query: 'order', column: 'body' })).toContain(
      'More than 2000 rows of tickets.body match: its counts above are of the first 2000 the database found.',
    );
    // The column held in the index is searched there as before.
    expect(await seen({ query: 'osloo' })).toContain('"Oslo" in tickets.city (1000 rows; close spelling)');
  });

  it('answers a phrase common in a large column from a sample of its pages, and a rare one from the index', async () => {
    // A quarter of 200,000 notes say it: a sample of about 10,000 rows finds it thousands of times.
    const common = await seen({ query: 'refund asked', column: 'note' });
    expect(common).toContain(
      'Many rows of notes.note match: its values and counts above are of a sample of about 10000 of its 200000 rows',
    );
    const counts = [...common.matchAll(/"refund asked twice #\d+" in notes\.note \((\d+) rows/g)].map((m) =>
      Number(m[1]),
    );
    expect(counts.length).toBeGreaterThan(0);
    // The sample's counts: a value is in 1 of 388 notes (about 515 of 200,000), far fewer in the sample.
    expect(Math.max(...counts)).toBeLessThan(100);
    // Five notes: too rare for the sample, so the index finds every one, counted exactly.
    const rare = await seen({ query: 'the flood', column: 'note' });
    expect(rare).not.toContain('sample');
    expect(rare.match(/"lost in the flood, box \d+" in notes\.note \(1 row; contains it/g)).toHaveLength(5);
    // A small column is asked of the index at once, as before.
    expect(await seen({ query: 'refund asked', table: 'tickets', column: 'body' })).not.toContain('sample');
  });

  it('links a code the question names to the column that stores it, which the value index does not hold', async () => {
    const links = await engine.linkQuestion('t', 'How heavy is parcel pk-7042-b, and what of PK-9999-Z?');
    const values = links.filter((l) => l.kind === 'value' && l.table === 'parcels');
    expect(values).toEqual([
      expect.objectContaining({ text: 'pk-7042-b', column: 'ref', value: 'PK-7042-B', start: 20, end: 29, score: 0.9 }),
    ]);
  });

  it('leaves their statistics to the server, and a search that matches nothing says so', async () => {
    const grounding = await engine.grounding('t');
    const subject = grounding.stats.find((s) => s.column === 'subject');
    expect(subject?.categories?.map((c) => c.value).sort()).toEqual([
      'Invoice missing VAT number',
      'Parcel arrived damaged',
      'Refund not received',
      'Wrong size sent',
    ]);
    const columns = (await engine.callTool('t', 'search_value', { query: 'zzzz' })).observation;
    expect(unmark(columns)).toContain('No values match "zzzz"');
  });
});
