// The contract every agent tool follows: one file per tool, each exporting a `Tool`.
// Input is validated with zod (its JSON Schema is what model providers are given); the output is
// structured data for the page and the CLI, and `observe` turns it into the compact, bounded text
// the model reads.

import type { z } from 'zod';

export interface Tool<Input, Output, Context> {
  /** snake_case name used by the model: search_column, search_value, find_shortest_path, execute_sql */
  name: string;
  /** What the model is told the tool does (one or two sentences). */
  description: string;
  input: z.ZodType<Input>;
  run(input: Input, context: Context, signal?: AbortSignal): Promise<Output>;
  /** Text the model reads as the observation: compact, capped, database text quoted as data. */
  observe(output: Output): string;
}
