// The retrieval tools by name, and one way to call any of them: validate the input with the
// tool's zod schema, run, and turn the output into the observation text. A bad input is an
// observation that says what was wrong, never an exception (the agent reads it and retries).

import { z } from 'zod';
import { executeSqlTool } from './execute-sql';
import { findShortestPathTool } from './find-shortest-path';
import { searchColumnTool } from './search-column';
import { searchValueTool } from './search-value';
import type { Tool } from './types';
import type { ToolParts } from './tool-parts';
import { errorData } from './quote-data';
import { toDowserError } from '../errors';

export const RETRIEVAL_TOOLS = {
  search_column: searchColumnTool,
  search_value: searchValueTool,
  find_shortest_path: findShortestPathTool,
  execute_sql: executeSqlTool,
} as const;

export type ToolName = keyof typeof RETRIEVAL_TOOLS;

/** What each tool works with, from its own declaration. */
export type ToolContexts = {
  [N in ToolName]: (typeof RETRIEVAL_TOOLS)[N] extends Tool<infer _I, infer _O, infer C> ? C : never;
};

/**
 * A set of tools by name. The app's is RETRIEVAL_TOOLS; tests pass one with a tool added, to
 * show that everything made from the registry takes a new tool without other edits.
 */
export type ToolRegistry = Readonly<Record<string, Tool<unknown, unknown, unknown>>>;

/** RETRIEVAL_TOOLS as a registry of any tools. */
export const APP_TOOLS = RETRIEVAL_TOOLS as unknown as ToolRegistry;

/** Every tool's context, each taken by the tool from the toolbox's parts. */
export function toolContexts(parts: ToolParts): ToolContexts;
export function toolContexts(parts: ToolParts, registry: ToolRegistry): Record<string, unknown>;
export function toolContexts(parts: ToolParts, registry: ToolRegistry = APP_TOOLS): unknown {
  return Object.fromEntries(Object.entries(registry).map(([name, tool]) => [name, tool.contextOf(parts)]));
}

export const TOOL_NAMES = Object.keys(RETRIEVAL_TOOLS) as ToolName[];

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(RETRIEVAL_TOOLS, name);
}

/** JSON Schema of a tool's input, as model providers want it. */
export function toolInputSchema(name: ToolName): Record<string, unknown> {
  // The input side: what the model writes (some inputs are normalised by a transform after validation).
  return z.toJSONSchema(RETRIEVAL_TOOLS[name].input as z.ZodType, { io: 'input' }) as Record<string, unknown>;
}

export type ToolCallOutcome =
  | { ok: true; tool: ToolName; output: unknown; observation: string; ms: number }
  | {
      ok: false;
      tool: string;
      error: 'unknown_tool' | 'bad_arguments' | 'tool_failed';
      observation: string;
      ms: number;
    };

export function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`).join('; ');
}

/** Runs `name` with `args` against `context` (each tool takes the part of the context it needs). */
export async function callTool(
  name: string,
  args: unknown,
  context: unknown,
  signal?: AbortSignal,
  registry: ToolRegistry = APP_TOOLS,
): Promise<ToolCallOutcome> {
  const t0 = Date.now();
  if (!Object.hasOwn(registry, name)) {
    return {
      ok: false,
      tool: name,
      error: 'unknown_tool',
      observation: `Unknown tool "${name}". Tools: ${Object.keys(registry).join(', ')}.`,
      ms: 0,
    };
  }
  const tool = registry[name];
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) {
    return {
      ok: false,
      tool: name,
      error: 'bad_arguments',
      observation: `Bad arguments for ${name}: ${describeZodError(parsed.error)}.`,
      ms: 0,
    };
  }
  try {
    const output = await tool.run(parsed.data, context, signal);
    // The app's registry names only ToolNames; a test registry's added tool is named as it says.
    return { ok: true, tool: name as ToolName, output, observation: tool.observe(output), ms: Date.now() - t0 };
  } catch (e) {
    return {
      ok: false,
      tool: name,
      error: 'tool_failed',
      observation: `${name} failed: ${errorData(toDowserError(e))}`,
      ms: Date.now() - t0,
    };
  }
}

/** True for a tool that runs while the indexes are still being built (Tool.contextBeforeIndexes). */
export function runsBeforeIndexes(name: string, registry: ToolRegistry = APP_TOOLS): boolean {
  return Object.hasOwn(registry, name) && typeof registry[name].contextBeforeIndexes === 'function';
}

/**
 * A tool run from the database and its schema alone, while the indexes are being built; null for
 * a tool that needs them.
 */
export function callBeforeIndexes(
  name: string,
  args: unknown,
  parts: Pick<ToolParts, 'exec' | 'schema'>,
  registry: ToolRegistry = APP_TOOLS,
): Promise<ToolCallOutcome> | null {
  if (!runsBeforeIndexes(name, registry)) return null;
  return callTool(name, args, registry[name].contextBeforeIndexes!(parts), undefined, registry);
}

/**
 * What a tool that needs the indexes says when they were not ready within the wait: an outcome
 * the model can act on (SQL runs meanwhile), not a time-out that reads as a broken call.
 */
export function indexesNotReady(name: string, waitedMs: number): ToolCallOutcome {
  return {
    ok: false,
    tool: name,
    error: 'tool_failed',
    observation: `${name} is not available yet: the search indexes of this database are still being built (it reads every text value of the file). Use execute_sql meanwhile (for a value: WHERE column LIKE '%…%'), or call ${name} again later.`,
    ms: waitedMs,
  };
}
