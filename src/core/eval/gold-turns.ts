// The `gold` provider: a model that answers every request with the reference SQL, so the harness
// can be checked end to end — prompt, tools, the read-only gates, the finish path, scoring — with
// answers that must all score, and so the token cost of a path with a perfect model can be read.
// It answers what is asked (one scripted turn per request, llm/scripted.ts streams it): the check
// of a result says match; a request without tools gets the SQL; the agent plans with the tables
// the SQL names, runs it, and finishes with it and an explanation.

import { isCheckSystem } from '../agent/explain';
import { createScriptedModel, type ScriptedTurn } from '../llm/scripted';
import type { ChatModel, ChatRequest } from '../llm/types';
import { tablesMentioned } from '../tools/sql-repair';
import type { Schema } from '../types';

const EXPLANATION = 'The reference answer of the benchmark.';

/** The turn the reference answers `request` with. */
export function goldTurn(request: ChatRequest, sql: string, question: string, schema: Schema): ScriptedTurn {
  const system = request.messages[0]?.role === 'system' ? request.messages[0].content : '';
  if (isCheckSystem(system)) return { text: `Verdict: match\nExplanation: ${EXPLANATION}` };
  if (!request.tools?.length) return { text: '```sql\n' + sql + '\n```' };
  const replied = request.messages.filter((m) => m.role === 'assistant').length;
  const offered = new Set(request.tools.map((t) => t.name));
  if (replied === 0 && offered.has('submit_plan')) {
    const tables = tablesMentioned(sql, schema).map((table) => ({ table, columns: [] }));
    return { toolCalls: [{ name: 'submit_plan', arguments: { sub_questions: [{ text: question, tables }] } }] };
  }
  const ran = request.messages.some(
    (m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.name === 'execute_sql'),
  );
  if (!ran) return { toolCalls: [{ name: 'execute_sql', arguments: { sql } }] };
  return { toolCalls: [{ name: 'done', arguments: { sql, explanation: EXPLANATION } }] };
}

export function goldModel(sql: string, question: string, schema: Schema): ChatModel {
  return {
    provider: 'scripted',
    model: 'gold',
    supportsTools: true,
    stream: (request) =>
      createScriptedModel([goldTurn(request, sql, question, schema)], { name: 'gold' }).stream(request),
  };
}
