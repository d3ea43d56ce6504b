import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../e2e/mock-llm/server';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { openaiFlags, runCli } from '../test-support/run-cli';

let dir: string;
let db: string;
let mock: MockLlm | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-link-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const dowser = (...argv: string[]) => runCli(argv);

const QUESTION = 'Total of paid orders from Paris?';

describe('dowser link', () => {
  it('without a model: the structure linker alone, and says so', async () => {
    const r = await dowser('link', '--db', db, QUESTION);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No model is configured: the structure linker alone');
    expect(r.stdout).toMatch(/^orders \(linker\)/m);
    expect(r.stdout).toMatch(/^customers \(linker\): city \(linker\)/m);
  });

  it('with a model: the preliminary SQL adds its tables and columns; --json', async () => {
    const preSql =
      "SELECT sum(o.total) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.city = 'Paris' AND o.status = 'paid'";
    mock = await startMockLlm({ script: [{ text: preSql }] });
    const r = await dowser('link', '--db', db, QUESTION, ...openaiFlags(mock.url, 'm'), '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      tables: Array<{ table: string; from: string[]; columns: Array<{ column: string; from: string[] }> }>;
      preSql: string;
      note: string | null;
    };
    expect(out.preSql).toBe(preSql);
    expect(out.note).toBeNull();
    const orders = out.tables.find((t) => t.table === 'orders')!;
    expect(orders.from).toEqual(['linker', 'presql']);
    expect(orders.columns.map((c) => c.column)).toEqual(expect.arrayContaining(['customer_id', 'total', 'status']));
    expect(orders.columns.find((c) => c.column === 'total')!.from).toContain('presql');
    // The one model call is the Direct template: schema lines and the question, no tools.
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0].tools).toBeUndefined();
    expect(JSON.stringify(mock.requests[0].messages)).toContain('### Question: \\"Total of paid orders from Paris?\\"');
  });

  it('a failed model call leaves the linker result with the reason', async () => {
    mock = await startMockLlm({ script: [{ error: { status: 500, body: { error: { message: 'boom' } } } }] });
    const r = await dowser('link', '--db', db, QUESTION, ...openaiFlags(mock.url, 'm'));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/The preliminary SQL failed \(llm_server/);
    expect(r.stdout).toMatch(/^orders \(linker\)/m);
  });

  it('refuses a missing question', async () => {
    const r = await dowser('link', '--db', db);
    expect(r.code).toBe(2);
  });
});
