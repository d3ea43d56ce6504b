// The contract every agent tool follows: one file per tool, each exporting a `Tool`.
// Input is validated with zod (its JSON Schema is what model providers are given); the output is
// structured data for the page and the CLI, and `observe` turns it into the compact, bounded text
// the model reads.

import type { z } from 'zod';
import type { ToolParts } from './tool-parts';

export interface Tool<Input, Output, Context> {
  /** snake_case name used by the model: search_column, search_value, find_shortest_path, execute_sql */
  name: string;
  /** What the model is told the tool does (one or two sentences). */
  description: string;
  /**
   * When the agent should use it, as a clause of the prompt's steps, the tool's name first
   * (core/agent/prompt.ts `processText` makes the steps from these).
   */
  when: string;
  input: z.ZodType<Input>;
  run(input: Input, context: Context, signal?: AbortSignal): Promise<Output>;
  /** Its part of the toolbox (what `run` gets as its context). */
  contextOf(parts: ToolParts): Context;
  /**
   * Its context while the indexes are still being built, from the database and its schema alone;
   * absent: the tool needs the indexes and waits for them (a large file's build takes minutes, and
   * SQL should not wait for it).
   */
  contextBeforeIndexes?(parts: Pick<ToolParts, 'exec' | 'schema'>): Context;
  /** Text the model reads as the observation: compact, capped, database text quoted as data. */
  observe(output: Output): string;
  /** How a person runs it by hand: the Tools panel's form and `dowser tools <command>` are made from it. */
  face: ToolFace<Input>;
}

/** One argument of a tool as a person gives it. */
export interface ToolField<Input> {
  /** The input's key. */
  name: Extract<keyof Input, string>;
  /** The form field's label (and accessible name). */
  label: string;
  placeholder?: string;
  kind: 'text' | 'number';
  required: boolean;
  /** On the command line: given in order without a flag (else `--<name> <value>`). */
  positional: boolean;
  /** A short field beside the main one. */
  narrow?: boolean;
  /** The range a number field offers (the input's own check still applies). */
  min?: number;
  max?: number;
}

export interface ToolFace<Input> {
  /** `dowser tools <command>`. */
  command: string;
  /** The Tools panel's tab; null: not in the panel (SQL runs in the SQL tab). */
  label: string | null;
  /** One line under the tab, and in `dowser tools --help`. */
  hint: string;
  fields: ReadonlyArray<ToolField<Input>>;
}
