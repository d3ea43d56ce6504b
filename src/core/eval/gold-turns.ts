// The `gold` provider: the scripted model (llm/scripted.ts) answering with the reference SQL, so
// the harness can be checked end to end — prompt, tools, the read-only gates, the finish path,
// scoring — with answers that must all score. In agent mode it plans with the tables the SQL
// names, runs the SQL, calls done and explains; in Direct mode it replies with the SQL.

import type { ScriptedTurn } from '../llm/scripted';
import { tablesMentioned } from '../tools/sql-repair';
import type { Schema } from '../types';
import type { EvalMode } from './run-for-eval';

const EXPLANATION = 'Explanation: The reference answer of the benchmark.\nVerdict: match';

export function goldTurns(sql: string, question: string, schema: Schema, mode: EvalMode): ScriptedTurn[] {
  if (mode === 'direct') return [{ text: sql }, { text: EXPLANATION }];
  const tables = tablesMentioned(sql, schema).map((table) => ({ table, columns: [] }));
  return [
    { toolCalls: [{ name: 'submit_plan', arguments: { sub_questions: [{ text: question, tables }] } }] },
    { toolCalls: [{ name: 'execute_sql', arguments: { sql } }] },
    { toolCalls: [{ name: 'done', arguments: { sql } }] },
    { text: EXPLANATION },
  ];
}
