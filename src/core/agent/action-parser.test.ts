import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../random';
import { parseAction, parseActions } from './action-parser';

describe('parseAction', () => {
  it('reads a thought and a one-line action', () => {
    expect(parseAction('Thought: look up Paris\nAction: search_value {"query": "Paris", "k": 3}')).toEqual({
      thought: 'look up Paris',
      action: { name: 'search_value', args: { query: 'Paris', k: 3 } },
    });
  });

  it('tolerates code fences, JSON on the next lines, name(...) and trailing text', () => {
    const fenced = parseAction('Thought: run it\n```\nAction: execute_sql {"sql": "SELECT 1"}\n```');
    expect(fenced).toMatchObject({ action: { name: 'execute_sql', args: { sql: 'SELECT 1' } } });
    const nextLines = parseAction(
      'Action: find_shortest_path\n```json\n{\n  "start": "a",\n  "end": "b"\n}\n```\nI hope this helps.',
    );
    expect(nextLines).toMatchObject({ action: { name: 'find_shortest_path', args: { start: 'a', end: 'b' } } });
    const call = parseAction('**Action:** `done`({"sql": "SELECT \'}\' AS x"}) and more {');
    expect(call).toMatchObject({ action: { name: 'done', args: { sql: "SELECT '}' AS x" } } });
  });

  it('ignores an observation the model invented', () => {
    const out = parseAction(
      'Action: search_column {"query": "city"}\nObservation: 1. customers.city\nAction: done {"sql": "x"}',
    );
    expect(out).toMatchObject({ action: { name: 'search_column' } });
  });

  it('says what was wrong with a malformed action', () => {
    expect(parseAction('I think the answer is 4.')).toMatchObject({
      kind: 'no_action',
      thought: 'I think the answer is 4.',
    });
    expect(parseAction('Action: execute_sql')).toMatchObject({
      kind: 'bad_action',
      error: expect.stringContaining('no JSON arguments'),
    });
    expect(parseAction('Action: execute_sql {"sql": "SELECT')).toMatchObject({
      kind: 'bad_action',
      error: expect.stringContaining('not closed'),
    });
    expect(parseAction('Action: execute_sql {"sql": SELECT 1}')).toMatchObject({
      kind: 'bad_action',
      error: expect.stringContaining('not valid JSON'),
    });
    expect(parseAction('Action: {"sql": "x"}')).toMatchObject({
      kind: 'bad_action',
      error: expect.stringContaining('tool name'),
    });
    expect(parseAction('Action: search_value says {"query": "x"}')).toMatchObject({ kind: 'bad_action' });
  });

  it('never throws on random or truncated input (2,000 seeded cases)', () => {
    const rand = mulberry32(4242);
    const pieces = [
      'Thought:',
      'Action:',
      'Observation:',
      ' ',
      '\n',
      '{',
      '}',
      '"',
      '\\',
      '[',
      ']',
      ':',
      ',',
      '```',
      'search_value',
      'done',
      '(',
      ')',
      'é',
      '\u0000',
      '\u2028',
      'null',
      '1e999',
      '"sql"',
    ];
    const valid = [
      'Thought: find it\nAction: search_value {"query": "Pa\\"ris", "table": "t", "k": 2}',
      'Action: submit_plan {"sub_questions":[{"text":"a","tables":[{"table":"t","columns":["c"]}]}]}',
      '```\nAction: execute_sql\n{"sql": "SELECT \\"x\\" FROM t WHERE a = \'}\'"}\n```',
    ];
    for (let i = 0; i < 2000; i++) {
      let input: string;
      if (i % 2 === 0) {
        const src = valid[i % valid.length];
        input = src.slice(0, Math.floor(rand() * (src.length + 1)));
      } else {
        const n = Math.floor(rand() * 40);
        input = Array.from({ length: n }, () =>
          rand() < 0.8 ? pieces[Math.floor(rand() * pieces.length)] : String.fromCharCode(Math.floor(rand() * 0xffff)),
        ).join('');
      }
      const out = parseAction(input);
      expect(typeof out.thought).toBe('string');
      if ('action' in out) expect(out.action.args).toBeTypeOf('object');
      else expect(out.error.length).toBeGreaterThan(0);
    }
  });

  it('accepts non-string input without throwing', () => {
    expect(parseAction(undefined)).toMatchObject({ kind: 'no_action' });
  });
});

describe('parseActions: what small models write', () => {
  const first = (text: string) => parseActions(text).actions[0];

  it('reads single quotes, trailing commas, and a JSON string inside a string', () => {
    expect(first("Action: execute_sql {'sql': 'SELECT 1',}")).toEqual({
      name: 'execute_sql',
      args: { sql: 'SELECT 1' },
    });
    expect(first('Action: search_value "{\\"query\\": \\"Paris\\"}"')).toMatchObject({ name: 'search_value' });
  });

  it('reads Python keyword calls', () => {
    expect(first('Action: search_value(query="Paris", k=3, table=None)')).toEqual({
      name: 'search_value',
      args: { query: 'Paris', k: 3, table: null },
    });
  });

  it('reads <tool_call> blocks, with arguments as an object or a string', () => {
    const reply =
      'I will look it up.\n<tool_call>\n{"name": "search_value", "arguments": {"query": "Paris"}}\n</tool_call>\n<tool_call>{"name": "find_shortest_path", "arguments": "{\\"start\\": \\"a\\", \\"end\\": \\"b\\"}"}</tool_call>';
    const parsed = parseActions(reply);
    expect(parsed.thought).toBe('I will look it up.');
    expect(parsed.actions).toEqual([
      { name: 'search_value', args: { query: 'Paris' } },
      { name: 'find_shortest_path', args: { start: 'a', end: 'b' } },
    ]);
  });

  it('reads several Action lines as several actions, in order', () => {
    const parsed = parseActions(
      'Thought: both\nAction: search_value {"query": "a"}\nAction: search_value {"query": "b"}',
    );
    expect(parsed.actions.map((a) => ('args' in a ? a.args.query : a.error))).toEqual(['a', 'b']);
  });

  it('says what to write when a <tool_call> block cannot be read', () => {
    expect(first('<tool_call>{"arguments": {}}</tool_call>')).toMatchObject({
      error: expect.stringContaining('no "name"'),
    });
    expect(first('<tool_call>not json</tool_call>')).toMatchObject({ error: expect.stringContaining('<tool_call>') });
  });

  it('refuses arguments nested deeper than any tool takes, before parsing, in every way they can come', () => {
    // JSON.parse reads these; JSON.stringify, zod and the loop's own walks overflow the stack on them.
    const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const nested = [
      `Action: search_value {"query": "x", "a": ${arrays(10_000)}}`,
      `Action: search_value ${objects(10_000)}`,
      `<tool_call>{"name": "search_value", "arguments": {"a": ${arrays(10_000)}}}</tool_call>`,
      `<tool_call>{"name": "search_value", "arguments": ${JSON.stringify(objects(10_000))}}</tool_call>`,
    ];
    for (const reply of nested)
      expect(first(reply)).toMatchObject({ error: expect.stringContaining('nest more than 32 levels') });
    expect(first(`Action: search_value {"query": "x", "a": ${arrays(31)}}`)).toMatchObject({
      args: { query: 'x' },
    });
  });
});
