// Whether SQLite raised an error while reading rows (its message may quote cell values: issue 28)
// or while compiling (the SQL and the schema only): the engine says which on the error.
import { beforeAll, describe, expect, it } from 'vitest';
import { toDowserError } from '../../core/errors';
import { buildDb } from '../../test-support/build-db';
import type { SqljsEngine } from './engine';
import { createNodeEngine } from './node';

describe('the origin of an SQL error', () => {
  let engine: SqljsEngine;
  const failure = async (sql: string) => toDowserError(await engine.query('db', sql).catch((e: unknown) => e));

  beforeAll(async () => {
    engine = await createNodeEngine();
    await engine.open({
      id: 'db',
      name: 'p.sqlite',
      bytes: await buildDb("CREATE TABLE p (name TEXT); INSERT INTO p VALUES ('Brindlemoor');"),
    });
  });

  it('an error raised while reading rows is marked as one that may quote values', async () => {
    const err = await failure("SELECT json_extract('{}', 'x' || name) FROM p");
    expect(err.message).toContain('Brindlemoor');
    expect(err.quotesData).toBe(true);
  });

  it('a compile error is not', async () => {
    const err = await failure('SELECT nope FROM p');
    expect(err.message).toContain('no such column');
    expect(err.quotesData).toBeUndefined();
  });

  it('the mark survives the trip through a plain object (the workers’ transfer)', async () => {
    const err = await failure("SELECT json_extract('{}', 'x' || name) FROM p");
    expect(toDowserError(JSON.parse(JSON.stringify({ ...err, message: err.message }))).quotesData).toBe(true);
  });
});
