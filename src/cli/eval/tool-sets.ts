// Which tools `dowser eval-tools --tools <name>` measures. Adding the product tools is one entry
// here: a function from the command's options to a ToolsUnderTestFactory.

import type { ToolsUnderTestFactory } from '../../core/eval/types';
import { UsageError } from '../command';
import { baselineToolsFactory } from './baseline-tools';
import { productToolsFactory } from './product-tools';

export interface ToolSetOptions {
  /** `--model <dir>`: a local embedding model folder, for hybrid tools. */
  model?: string;
  /** Where to say things worth knowing (e.g. an option the tool set ignores). */
  warn(message: string): void;
}

export interface ToolSet {
  name: string;
  /** One line for the usage text. */
  summary: string;
  /** Null when the tool set is listed but not wired yet. */
  create: ((options: ToolSetOptions) => ToolsUnderTestFactory) | null;
}

export const TOOL_SETS: ReadonlyMap<string, ToolSet> = new Map(
  [
    {
      name: 'baseline',
      summary: 'plain BM25 over names, exact/LIKE value lookup, declared foreign keys (the reference point)',
      create: (options: ToolSetOptions) => {
        if (options.model) options.warn('--model is ignored by the baseline tools (they are lexical only)');
        return baselineToolsFactory;
      },
    },
    {
      name: 'product',
      summary: 'the product retrieval tools (src/core/tools), hybrid with --model <dir>, else lexical',
      create: (options: ToolSetOptions) => productToolsFactory({ model: options.model }),
    },
  ].map((t) => [t.name, t]),
);

export function toolsFactoryFor(name: string, options: ToolSetOptions): ToolsUnderTestFactory {
  const set = TOOL_SETS.get(name);
  if (!set) throw new UsageError(`unknown --tools "${name}" (choose from ${[...TOOL_SETS.keys()].join(', ')})`);
  if (!set.create)
    throw new UsageError(`--tools ${name} is not wired yet; only --tools baseline can be measured for now`);
  return set.create(options);
}
