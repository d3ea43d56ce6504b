// The product's retrieval tools (src/core/tools) behind the eval harness's interface: each call
// goes through the same toolbox, validation and ranking the agent and the page use.

import { basename, dirname, resolve } from 'node:path';
import { descriptionTexts } from '../../core/descriptions/bird-csv';
import type { ToolsUnderTestFactory } from '../../core/eval/types';
import type { Embedder } from '../../core/retrieval/embedder';
import type { ColumnHit, ValueHit } from '../../core/retrieval/types';
import { shortestJoinPaths } from '../../core/schema/join-graph';
import { buildToolbox } from '../../core/tools/toolbox';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** `--model <dir>`: a local model folder (config.json, tokenizer.json, onnx/…), loaded once. */
async function loadModel(dir: string): Promise<Embedder> {
  // transformers.js takes about 2 s to import: only when a model is asked for.
  const { createNodeEmbedder } = await import('../../adapters/transformers/node');
  const full = resolve(dir);
  return createNodeEmbedder({ modelId: basename(full), modelsDir: dirname(full), allowRemote: false });
}

export function productToolsFactory(options: { model?: string }): ToolsUnderTestFactory {
  const embedder: Promise<Embedder> | null = options.model ? loadModel(options.model) : null;
  return async (db) => {
    const toolbox = await buildToolbox(db.exec, db.schema, {
      descriptions: db.descriptions ? descriptionTexts(db.descriptions) : undefined,
      embedder: embedder ? await embedder : null,
    });
    return {
      mode: toolbox.mode,
      async searchColumn(question, k) {
        const out = await toolbox.call('search_column', { query: question, k });
        return out.ok ? (out.output as { hits: ColumnHit[] }).hits : [];
      },
      async searchValue(query, k) {
        const out = await toolbox.call('search_value', { query, k });
        return out.ok ? ((out.output as { hits?: ValueHit[] }).hits ?? []) : [];
      },
      async joinOneHop(a, b) {
        const r = shortestJoinPaths(toolbox.graph, a.table, b.table, { maxPaths: 20 });
        if (!r.ok) return false;
        return r.paths.some(
          (p) =>
            p.edges.length === 1 &&
            p.edges[0].fromColumns.length === 1 &&
            ((same(p.edges[0].fromTable, a.table) &&
              same(p.edges[0].fromColumns[0], a.column) &&
              same(p.edges[0].toTable, b.table) &&
              same(p.edges[0].toColumns[0], b.column)) ||
              (same(p.edges[0].fromTable, b.table) &&
                same(p.edges[0].fromColumns[0], b.column) &&
                same(p.edges[0].toTable, a.table) &&
                same(p.edges[0].toColumns[0], a.column))),
        );
      },
    };
  };
}
