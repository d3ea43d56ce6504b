import { describe, expect, it } from 'vitest';
import { callTool, TOOL_NAMES, toolContexts, toolInputSchema } from './registry';
import type { ToolParts } from './tool-parts';

describe('tool registry', () => {
  it('has the four retrieval tools, each with a JSON Schema for model providers', () => {
    expect(TOOL_NAMES).toEqual(['search_column', 'search_value', 'find_shortest_path', 'execute_sql']);
    for (const name of TOOL_NAMES) {
      const schema = toolInputSchema(name);
      expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(Object.keys(schema.properties as object).length).toBeGreaterThan(0);
    }
    expect(toolInputSchema('search_value')).toMatchObject({ required: ['query'] });
  });

  it('turns unknown tools and bad arguments into observations, not exceptions', async () => {
    const unknown = await callTool('drop_table', {}, {});
    expect(unknown).toMatchObject({ ok: false, error: 'unknown_tool' });
    expect(unknown.observation).toContain('Tools: search_column, search_value, find_shortest_path, execute_sql');
    const bad = await callTool('find_shortest_path', { start: 'a' }, {});
    expect(bad).toMatchObject({ ok: false, error: 'bad_arguments' });
    expect(bad.observation).toMatch(/^Bad arguments for find_shortest_path: end: /);
    const extra = await callTool('execute_sql', { sql: 'SELECT 1', mode: 'write' }, {});
    expect(extra).toMatchObject({ ok: false, error: 'bad_arguments' });
  });

  it('reports a tool that throws as a failed call', async () => {
    const out = await callTool('find_shortest_path', { start: 'a', end: 'b' }, { graph: null });
    expect(out).toMatchObject({ ok: false, error: 'tool_failed' });
  });

  it('gives every registered tool its context from the toolbox’s parts (a new tool needs no toolbox line)', () => {
    const parts = {
      schema: { tables: [] },
      exec: { query: () => undefined },
      columns: 'columns',
      values: 'values',
      graph: 'graph',
      unmatched: new Map(),
      evidence: 'evidence',
      valueLinks: () => [],
    } as unknown as ToolParts;
    const contexts = toolContexts(parts);
    expect(Object.keys(contexts).sort()).toEqual([...TOOL_NAMES].sort());
    expect(contexts.search_value).toEqual({ values: 'values', exec: parts.exec });
    expect(contexts.find_shortest_path).toMatchObject({ graph: 'graph' });
    expect(contexts.execute_sql).toMatchObject({ schema: parts.schema, values: 'values', evidence: 'evidence' });
    expect(contexts.search_column).toMatchObject({ columns: 'columns', valueLinks: parts.valueLinks });
  });
});
