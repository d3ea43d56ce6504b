// find_shortest_path: how to join two tables (or the tables of two columns). The model gets
// every equally short chain of keys with a ready JOIN clause, so it does not guess ON conditions.

import { meetCondition } from '../schema/key-health';
import { z } from 'zod';
import { type FindPathResult, type JoinGraph, type PathEndpoint, shortestJoinPaths } from '../schema/join-graph';
import type { JoinEdge, JoinPath } from '../retrieval/types';
import { escapeControls, promptIdent } from '../prompt/schema-text';
import { keyLabel, type UnmatchedKey } from '../schema/key-health';
import type { Tool } from './types';

export interface FindShortestPathInput {
  start: string;
  end: string;
}

/** Paths shown to the model; the rest are counted, not listed. */
const MAX_PATHS_SHOWN = 5;
/** The observation stays short even for tables with very long names. */
const MAX_OBSERVATION_CHARS = 4000;

// Names are SQL identifiers, quoted when needed; control characters are escaped so a table name
// cannot start a new line of the observation. JOIN clauses too: a quoted name holding a line
// break would otherwise forge lines (such a name has to be retyped by the model, a fair price).
const safe = escapeControls;
const name = promptIdent;
const endpointText = (e: PathEndpoint) => (e.column === null ? name(e.table) : `${name(e.table)}.${name(e.column)}`);
const chain = (p: JoinPath) => p.tables.map(name).join(' -> ');
const condition = (e: JoinEdge) =>
  e.fromColumns
    .map((c, i) => `${name(e.fromTable)}.${name(c)} = ${name(e.toTable)}.${name(e.toColumns[i])}`)
    .join(' AND ');

export interface FindShortestPathContext {
  graph: JoinGraph;
  /** Declared keys whose values never meet (schema/key-health.ts), by keyLabel. */
  unmatched?: ReadonlyMap<string, UnmatchedKey>;
}

function unmatchedWarning(e: JoinEdge, u: UnmatchedKey): string {
  return `Warning: the declared key ${condition(e)} matched none of ${u.checked} values checked: ${name(e.fromTable)}.${name(e.fromColumns[0])} holds e.g. ${u.childExamples.join(', ')}; ${name(e.toTable)}.${name(e.toColumns[0])} holds e.g. ${u.parentExamples.join(', ')}. ${u.meetsAfter ? `Most of them meet as ${meetCondition(u.meetsAfter, 'a', 'b')}.` : 'Compare them as stored (e.g. with trim() or lower()).'}`;
}

/** Warnings for the declared keys of the shown paths whose values never meet. */
function warningsFor(result: FindPathResult, unmatched?: ReadonlyMap<string, UnmatchedKey>): string[] {
  if (!result.ok || !unmatched?.size) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of result.paths.slice(0, MAX_PATHS_SHOWN).flatMap((p) => p.edges)) {
    const label = keyLabel(e);
    const u = unmatched.get(label);
    if (u && !seen.has(label)) {
      seen.add(label);
      out.push(unmatchedWarning(e, u));
    }
  }
  return out;
}

function describePaths(result: Extract<FindPathResult, { ok: true }>): string[] {
  const { start, end, paths, totalPaths } = result;
  if (paths.length === 0)
    return [safe(result.message ?? `No join path between ${endpointText(start)} and ${endpointText(end)}.`)];
  if (paths[0].edges.length === 0) {
    return [
      `${endpointText(start)} and ${endpointText(end)} are in the same table: no join needed.`,
      `   ${safe(paths[0].joinClause)}`,
    ];
  }
  const joins = paths[0].edges.length;
  const lines = [
    `${totalPaths === 1 ? 'One shortest join path' : `${totalPaths} equally short join paths`} from ${endpointText(start)} to ${endpointText(end)} (${joins} join${joins === 1 ? '' : 's'}${totalPaths === 1 ? '' : ' each'}):`,
  ];
  paths.slice(0, MAX_PATHS_SHOWN).forEach((p, i) => {
    lines.push(`${i + 1}. ${chain(p)}`, `   ${safe(p.joinClause)}`);
    for (const e of p.edges.filter((x) => x.inferred))
      lines.push(`   Inferred, not declared (check it): ${condition(e)}`);
  });
  lines.push(...(result.warnings ?? []));
  const hidden = totalPaths - Math.min(paths.length, MAX_PATHS_SHOWN);
  if (hidden > 0) lines.push(`… ${hidden} more equally short path${hidden === 1 ? '' : 's'} not shown.`);
  return lines;
}

function observe(result: FindPathResult): string {
  if (!result.ok) {
    const hint = result.suggestions.length > 0 ? ` Did you mean: ${result.suggestions.map(safe).join(', ')}?` : '';
    return safe(result.message) + hint;
  }
  const lines = describePaths(result);
  for (const self of result.selfJoins) {
    lines.push(
      `${name(self.tables[0])} is also joinable to itself via ${condition(self.edges[0])}: ${safe(self.joinClause)}`,
    );
  }
  const text = lines.join('\n');
  return text.length <= MAX_OBSERVATION_CHARS
    ? text
    : `${text.slice(0, MAX_OBSERVATION_CHARS)}\n… (cut at ${MAX_OBSERVATION_CHARS} characters)`;
}

export const findShortestPathTool: Tool<FindShortestPathInput, FindPathResult, FindShortestPathContext> = {
  name: 'find_shortest_path',
  description:
    'How to join two tables (start, end: table or table.column): the shortest foreign-key join paths with a ready JOIN clause; inferred keys are marked.',
  input: z.strictObject({ start: z.string().min(1), end: z.string().min(1) }),
  when: 'find_shortest_path when the keys shown do not give the join (copy its JOIN clause)',
  contextOf: ({ graph, unmatched }) => ({ graph, unmatched }),
  async run(input, { graph, unmatched }) {
    const result = shortestJoinPaths(graph, input.start, input.end, { maxPaths: MAX_PATHS_SHOWN });
    const warnings = warningsFor(result, unmatched);
    return result.ok && warnings.length ? { ...result, warnings } : result;
  },
  observe,
  face: {
    command: 'path',
    label: 'Join path',
    hint: 'Two tables, or table.column: how do they join?',
    fields: [
      {
        name: 'start',
        label: 'Start',
        placeholder: 'table or table.column',
        kind: 'text',
        required: true,
        positional: true,
      },
      {
        name: 'end',
        label: 'End',
        placeholder: 'table or table.column',
        kind: 'text',
        required: true,
        positional: true,
      },
    ],
  },
};
