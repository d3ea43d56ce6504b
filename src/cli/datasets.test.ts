// Real databases nobody on this project wrote (../shared/datasets, outside the repository):
// Chinook, and every Spider dev database with the foreign keys Spider's own tables.json lists.
// Skipped when the folder is not there.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../adapters/sqljs/engine';
import { createNodeEngine } from '../adapters/sqljs/node';
import type { Schema } from '../core/types';
import type { CliIo } from './command';
import { run } from './main';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const datasets = resolve(repoRoot, '../shared/datasets');
const chinookPath = join(datasets, 'sample_dbs/chinook/Chinook_Sqlite.sqlite');
const spiderRoot = join(datasets, 'spider');
const exists = existsSync(chinookPath) && existsSync(join(spiderRoot, 'tables.json'));
if (!exists) console.warn(`datasets tests skipped: ${datasets} (Chinook and Spider) not found`);

/** `table.column -> table.column`, lower case: Spider's names do not always match the file's case. */
const edgeKey = (table: string, column: string, refTable: string, refColumn: string) =>
  `${table}.${column} -> ${refTable}.${refColumn}`.toLowerCase();

function fkEdges(schema: Schema): Set<string> {
  return new Set(
    schema.foreignKeys.flatMap((fk) => fk.from.map((f, i) => edgeKey(fk.table, f, fk.refTable, fk.to[i]))),
  );
}

async function allStats(engine: SqljsEngine, id: string, schema: Schema): Promise<number> {
  let n = 0;
  for (const t of schema.tables) {
    for (const c of t.columns) {
      await engine.columnStats(id, t.name, c.name);
      n++;
    }
  }
  return n;
}

describe.skipIf(!exists)('Chinook (../shared/datasets)', () => {
  let engine: SqljsEngine;
  let schema: Schema;

  beforeAll(async () => {
    engine = await createNodeEngine();
    await engine.open({ id: 'chinook', name: 'Chinook_Sqlite.sqlite', bytes: readFileSync(chinookPath) });
    schema = await engine.introspect('chinook');
  });
  afterAll(() => engine.close('chinook'));

  it('has the 11 tables with their row counts', () => {
    expect(Object.fromEntries(schema.tables.map((t) => [t.name, t.rowCount]))).toEqual({
      Album: 347,
      Artist: 275,
      Customer: 59,
      Employee: 8,
      Genre: 25,
      Invoice: 412,
      InvoiceLine: 2240,
      MediaType: 5,
      Playlist: 18,
      PlaylistTrack: 8715,
      Track: 3503,
    });
  });

  it('has the known foreign keys, including the self-reference', () => {
    expect([...fkEdges(schema)].sort()).toEqual(
      [
        edgeKey('Album', 'ArtistId', 'Artist', 'ArtistId'),
        edgeKey('Customer', 'SupportRepId', 'Employee', 'EmployeeId'),
        edgeKey('Employee', 'ReportsTo', 'Employee', 'EmployeeId'),
        edgeKey('Invoice', 'CustomerId', 'Customer', 'CustomerId'),
        edgeKey('InvoiceLine', 'InvoiceId', 'Invoice', 'InvoiceId'),
        edgeKey('InvoiceLine', 'TrackId', 'Track', 'TrackId'),
        edgeKey('PlaylistTrack', 'PlaylistId', 'Playlist', 'PlaylistId'),
        edgeKey('PlaylistTrack', 'TrackId', 'Track', 'TrackId'),
        edgeKey('Track', 'AlbumId', 'Album', 'AlbumId'),
        edgeKey('Track', 'GenreId', 'Genre', 'GenreId'),
        edgeKey('Track', 'MediaTypeId', 'MediaType', 'MediaTypeId'),
      ].sort(),
    );
    expect(schema.tables.find((t) => t.name === 'PlaylistTrack')?.primaryKey).toEqual(['PlaylistId', 'TrackId']);
  });

  it('computes statistics for every column', async () => {
    expect(await allStats(engine, 'chinook', schema)).toBe(64);
    const dates = await engine.columnStats('chinook', 'Invoice', 'InvoiceDate');
    expect(dates).toMatchObject({ looksLikeDate: true, nullCount: 0, approximate: false });
  });

  it('passes the integrity check', async () => {
    expect((await engine.check('chinook')).quickCheck).toEqual(['ok']);
  });

  it('prints through `dowser schema` and `dowser sql`', async () => {
    let stdout = '';
    const io: CliIo = {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => true },
      readFile: (p) => readFileSync(p),
    };
    expect(await run(['schema', '--db', chinookPath], io)).toBe(0);
    expect(stdout).toContain('11 tables, 0 views, 11 foreign keys');
    expect(stdout).toContain('    Employee.ReportsTo -> Employee.EmployeeId\n');
    stdout = '';
    expect(await run(['sql', '--db', chinookPath, 'SELECT count(*) AS n FROM Track', '--csv'], io)).toBe(0);
    expect(stdout).toBe('n\r\n3503\r\n');
  });
});

interface SpiderTables {
  db_id: string;
  table_names_original: string[];
  column_names_original: Array<[number, string]>;
  foreign_keys: Array<[number, number]>;
}

describe.skipIf(!exists)('Spider dev databases (../shared/datasets)', () => {
  const dbDir = join(spiderRoot, 'database');
  // spider/database/<db_id>/*.sqlite: the file is <db_id>.sqlite, and the folder name is Spider's db_id.
  const files = exists
    ? readdirSync(dbDir)
        .sort()
        .flatMap((d) =>
          readdirSync(join(dbDir, d))
            .filter((f) => f.endsWith('.sqlite'))
            .map((f) => join(d, f)),
        )
    : [];
  const names = files.map((f) => f.split(/[\\/]/)[0]);
  const specs: SpiderTables[] = exists ? JSON.parse(readFileSync(join(spiderRoot, 'tables.json'), 'utf8')) : [];
  let engine: SqljsEngine;
  const schemas = new Map<string, Schema>();

  beforeAll(async () => {
    engine = await createNodeEngine();
  });

  it('finds the databases (19 of the 20 dev databases; wta_1 is missing upstream)', () => {
    expect(names.length).toBeGreaterThanOrEqual(19);
  });

  it.each(files)('%s opens, introspects and gives statistics for every column', async (file) => {
    const name = file.split(/[\\/]/)[0];
    await engine.open({ id: name, name, bytes: readFileSync(join(dbDir, file)) });
    try {
      const schema = await engine.introspect(name);
      schemas.set(name, schema);
      expect(schema.tables.length).toBeGreaterThan(0);
      expect(schema.tables.filter((t) => t.error)).toEqual([]);
      expect(await allStats(engine, name, schema)).toBe(schema.tables.reduce((n, t) => n + t.columns.length, 0));
    } finally {
      await engine.close(name);
    }
  });

  it.each(names)("%s has exactly the foreign keys Spider's tables.json lists", (name) => {
    const schema = schemas.get(name);
    const spec = specs.find((s) => s.db_id === name);
    expect(schema, 'introspected above').toBeDefined();
    expect(spec, `tables.json entry for ${name}`).toBeDefined();
    const col = (i: number) => {
      const [table, column] = spec!.column_names_original[i];
      return [spec!.table_names_original[table], column] as const;
    };
    const expected = new Set(spec!.foreign_keys.map(([from, to]) => edgeKey(...col(from), ...col(to))));
    expect([...fkEdges(schema!)].sort()).toEqual([...expected].sort());
  });
});
