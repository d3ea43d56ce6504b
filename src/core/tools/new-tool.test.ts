// Adding a tool is its file and one line in the registry (issue 27): a tool defined here, put in
// a test registry beside the app's, is given its context, offered to the model with its schema,
// placed in the prompt's steps, run by name, and shown to a person (the Tools panel's and
// `dowser tools`' source) — with no other edit.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { processText, retrievalToolSpecs } from '../agent/prompt';
import { executorFor, type SqlExecutor } from '../executor';
import { quoteIdent } from '../sql/quote';
import { handTools } from './face';
import { APP_TOOLS, callTool, toolContexts, type ToolRegistry } from './registry';
import type { ToolParts } from './tool-parts';
import type { Tool } from './types';

/** The new tool, as its own file would define it. */
const input = z.strictObject({ table: z.string().min(1).describe('a table') });
const countRowsTool: Tool<z.infer<typeof input>, { table: string; rows: number }, { exec: SqlExecutor }> = {
  name: 'count_rows',
  description: 'How many rows a table holds.',
  input,
  when: 'count_rows to know how large a table is',
  contextOf: ({ exec }) => ({ exec }),
  async run({ table }, { exec }) {
    const r = await exec.query(`SELECT count(*) FROM ${quoteIdent(table)}`);
    return { table, rows: Number(r.rows[0][0]) };
  },
  observe: (o) => `${o.table}: ${o.rows} rows`,
  face: {
    command: 'count-rows',
    label: 'Count rows',
    hint: 'How many rows a table holds.',
    fields: [{ name: 'table', label: 'Table', kind: 'text', required: true, positional: true }],
  },
};

/** The one line a new tool takes in the registry. */
const registry: ToolRegistry = { ...APP_TOOLS, count_rows: countRowsTool as unknown as ToolRegistry[string] };

describe('a tool added to the registry', () => {
  it('is given its context, offered, placed in the steps, run by name and shown to a person', async () => {
    const engine = await createNodeEngine();
    await engine.open({ id: 's', name: 's', bytes: await buildDb(SHOP_SQL) });
    const exec = executorFor(engine, 's');
    const parts = { exec } as unknown as ToolParts;

    const contexts = toolContexts(parts, registry);
    expect(contexts.count_rows).toEqual({ exec });

    const spec = retrievalToolSpecs(registry).find((t) => t.name === 'count_rows');
    expect(spec?.description).toBe('How many rows a table holds.');
    expect((spec?.parameters.properties as Record<string, unknown>).table).toBeTruthy();

    for (const mode of ['native', 'text'] as const)
      expect(processText(mode, { confirmed: false, tools: registry })).toContain(
        'count_rows to know how large a table is.',
      );

    const out = await callTool('count_rows', { table: 'customers' }, contexts.count_rows, undefined, registry);
    expect(out).toMatchObject({ ok: true, observation: 'customers: 3 rows' });
    const bad = await callTool('count_rows', {}, contexts.count_rows, undefined, registry);
    expect(bad).toMatchObject({ ok: false, error: 'bad_arguments' });

    const face = handTools(registry).find((t) => t.name === ('count_rows' as never))?.face;
    expect(face).toMatchObject({ command: 'count-rows', label: 'Count rows' });
  });
});
