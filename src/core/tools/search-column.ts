// SearchColumn: ranks the columns of the database for a short phrase (or a whole question) and
// shows each with its type, description and value statistics, as the model will read them.

import { z } from 'zod';
import { statsSummary } from '../format/schema-text';
import type { ColumnIndex, ValueLink } from '../retrieval/column-index';
import type { ColumnHit } from '../retrieval/types';
import { escapeControls, promptIdent } from '../prompt/schema-text';
import { jsonData, quoteData } from './quote-data';
import type { Tool } from './types';
import { HOW_MANY_FIELD } from './fields';

export interface SearchColumnContext {
  columns: ColumnIndex;
  /** Cell values named in the query (through SearchValue); optional. */
  valueLinks?: (query: string) => ValueLink[];
  /** Cosine similarity per indexed column when an embedding model is loaded; null = lexical only. */
  semantic?: (query: string, signal?: AbortSignal) => Promise<Float32Array | null>;
}

export interface SearchColumnResult {
  query: string;
  mode: 'lexical' | 'hybrid';
  hits: ColumnHit[];
}

const input = z.strictObject({
  query: z.string().min(1).describe('e.g. "customer birth date"'),
  k: z.number().int().min(1).max(20).optional().describe('default 5'),
});

export const searchColumnTool: Tool<z.infer<typeof input>, SearchColumnResult, SearchColumnContext> = {
  name: 'search_column',
  description:
    'The columns that hold some data (give a short phrase), best first, with type, description and value statistics.',
  input,
  when: 'search_column if unsure where some data is',
  contextOf: ({ columns, valueLinks, semantic }) => ({ columns, valueLinks, semantic }),
  async run({ query, k = 5 }, ctx, signal) {
    const semantic = ctx.semantic ? await ctx.semantic(query, signal) : null;
    const hits = ctx.columns.search(query, { k, valueLinks: ctx.valueLinks?.(query), semantic });
    return { query, mode: semantic ? 'hybrid' : 'lexical', hits };
  },
  face: {
    command: 'search-column',
    label: 'Search columns',
    hint: 'A phrase or a whole question: which columns hold it?',
    fields: [
      {
        name: 'query',
        label: 'Phrase',
        placeholder: 'e.g. customer birth date',
        kind: 'text',
        required: true,
        positional: true,
      },
      HOW_MANY_FIELD,
    ],
  },
  observe({ hits }) {
    if (hits.length === 0) return 'The database has no columns to search.';
    const top = hits[0].score || 1;
    return hits
      .map((h, i) => {
        // How strong each match is next to the best, so a weak tail reads as weak.
        const strength =
          h.score <= 0
            ? 'no word in common'
            : h.score < 0.25 * top
              ? 'weak match'
              : `match ${Math.round((100 * h.score) / top)}%`;
        const type = h.declaredType ? escapeControls(h.declaredType) : 'no type';
        const parts = [`${i + 1}. ${promptIdent(h.table)}.${promptIdent(h.column)} (${type}; ${strength})`];
        // A filler that shares no word with the query is listed by name only: its values would
        // cost tokens on every later request for a column that is likely not the one.
        if (h.score <= 0) return parts[0];
        if (h.description)
          parts.push(
            `about ${jsonData(h.description.length > 120 ? h.description.slice(0, 120) + '…' : h.description)}`,
          );
        if (h.stats) parts.push(statsSummary(h.stats, (v) => quoteData(v, 40)));
        return parts.join(' — ');
      })
      .join('\n');
  },
};
