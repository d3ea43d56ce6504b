// What the page and the CLI show of a built toolbox (ToolsSummary), the same for every engine.

import type { ToolsSummary } from '../engine';
import type { Toolbox } from './toolbox';

export function summarizeToolbox(t: Toolbox): ToolsSummary {
  return {
    mode: t.mode,
    semanticNote: t.semanticNote,
    columnsIndexed: t.columns.columns.length,
    columnsDescribed: t.columns.columns.filter((c) => c.description).length,
    valuesIndexed: t.values.size,
    valuePolicies: t.values.columns
      .filter((c) => c.policy !== 'all')
      .map((c) => ({ table: c.table, column: c.column, policy: c.policy, note: c.note })),
    inferredKeys: t.inferredKeys.length,
    timings: t.timings,
    tokenizedIn: t.tokenizedIn,
    reused: t.reused,
    columnSentences: t.columns.columns.map((c) => c.sentence),
  };
}
