// DOWSER_READ (issue 26): the CLI reads a SQLite file where it lies when asked (or when it is
// large), answers the same, says so, and never writes to the file.
// @vitest-environment node
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDb, SHOP_SQL } from '../test-support/build-db';
import { runCli } from './test-support/run-cli';

let dir: string;
let file: string;
const hash = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-read-'));
  file = join(dir, 'shop.sqlite');
  writeFileSync(file, await buildDb(SHOP_SQL));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.DOWSER_READ;
});

describe('DOWSER_READ', () => {
  it('file: the schema says the file is read as needed, queries answer as from memory, the file is untouched', async () => {
    const before = hash(file);
    const sql = 'SELECT city, count(*) FROM customers GROUP BY city ORDER BY city';
    const fromMemory = await runCli(['sql', '--db', file, '--csv', sql]);
    process.env.DOWSER_READ = 'file';
    const schema = await runCli(['schema', '--db', file, '--no-stats']);
    expect(schema.stderr).toBe('');
    expect(schema.code).toBe(0);
    expect(schema.stdout).toContain('read from the file as needed');
    const fromFile = await runCli(['sql', '--db', file, '--csv', sql]);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toBe(fromMemory.stdout);
    const write = await runCli(['sql', '--db', file, 'DELETE FROM orders']);
    expect(write.code).not.toBe(0);
    expect(hash(file)).toBe(before);
  });

  it('memory (and unset) copies it; another value is a usage error', async () => {
    process.env.DOWSER_READ = 'memory';
    expect((await runCli(['schema', '--db', file, '--no-stats'])).stdout).not.toContain('read from the file');
    process.env.DOWSER_READ = 'disk';
    const bad = await runCli(['schema', '--db', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('DOWSER_READ must be auto, memory or file');
  });
});
