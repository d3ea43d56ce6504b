// The plan (QDecomp + InterCOL): sub-questions, each with the tables and columns it needs. The
// model writes it with submit_plan; validatePlan checks the names against the real schema, puts
// them in the schema's spelling and reports unknown ones with the closest real names, so the
// model (and the person reading the plan cards) sees the mistake before any SQL is written.

import { z } from 'zod';
import { promptIdent } from '../prompt/schema-text';
import { closestNames } from '../text/normalize';
import { jsonData, quotedData } from '../tools/quote-data';
import type { Schema } from '../types';

export const planInput = z.strictObject({
  sub_questions: z
    .array(
      z.strictObject({
        text: z.string().trim().min(1).describe('in plain words'),
        tables: z
          .array(
            z.strictObject({
              table: z.string().trim().min(1),
              columns: z.array(z.string().trim().min(1)).default([]),
            }),
          )
          .default([])
          .describe('tables it needs, with their columns'),
      }),
    )
    .min(1)
    .max(12),
});

export type Plan = z.output<typeof planInput>;

export interface PlanProblem {
  /** 0-based index of the sub-question. */
  subQuestion: number;
  table: string;
  column?: string;
  message: string;
  suggestions: string[];
}

export const SUBMIT_PLAN_DESCRIPTION =
  'First: the question as sub-questions, each with the tables and columns it needs (names are checked).';

// Models often write a column as `table.column` or quoted; the bare name is what is checked.
function bare(name: string): string {
  const m = name.trim().match(/^(?:"(.*)"|`(.*)`|\[(.*)\])$/s);
  return m ? (m[1] ?? m[2] ?? m[3]) : name.trim();
}

export function validatePlan(plan: Plan, schema: Schema): { plan: Plan; problems: PlanProblem[] } {
  const problems: PlanProblem[] = [];
  const tables = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t]));
  const subQuestions = plan.sub_questions.map((sq, i) => ({
    text: sq.text,
    tables: sq.tables.map((ref) => {
      const wanted = bare(ref.table);
      const info = tables.get(wanted.toLowerCase());
      if (!info) {
        const suggestions = closestNames(
          wanted,
          schema.tables.map((t) => t.name),
        );
        problems.push({
          subQuestion: i,
          table: wanted,
          message: `No table named ${jsonData(wanted)}.`,
          suggestions,
        });
        return { table: wanted, columns: ref.columns.map(bare) };
      }
      const columns = ref.columns.map((raw) => {
        let wantedColumn = bare(raw);
        const dot = wantedColumn.indexOf('.');
        if (dot > 0 && bare(wantedColumn.slice(0, dot)).toLowerCase() === info.name.toLowerCase())
          wantedColumn = bare(wantedColumn.slice(dot + 1));
        if (wantedColumn === '*') return '*';
        const col = info.columns.find((c) => c.name.toLowerCase() === wantedColumn.toLowerCase());
        if (col) return col.name;
        // Close names in this table first; else tables that do have such a column.
        let suggestions = closestNames(
          wantedColumn,
          info.columns.map((c) => c.name),
        );
        if (suggestions.length === 0) {
          suggestions = schema.tables
            .filter((t) => t.columns.some((c) => c.name.toLowerCase() === wantedColumn.toLowerCase()))
            .map((t) => `${t.name}.${t.columns.find((c) => c.name.toLowerCase() === wantedColumn.toLowerCase())!.name}`)
            .slice(0, 3);
        }
        problems.push({
          subQuestion: i,
          table: info.name,
          column: wantedColumn,
          message: `Table ${jsonData(info.name)} has no column ${jsonData(wantedColumn)}.`,
          suggestions,
        });
        return wantedColumn;
      });
      return { table: info.name, columns };
    }),
  }));
  return { plan: { sub_questions: subQuestions }, problems };
}

/** The observation the model gets after submit_plan: the plan as checked, and what to fix. */
export function planObservation(plan: Plan, problems: PlanProblem[]): string {
  const count = `${plan.sub_questions.length} sub-question${plan.sub_questions.length === 1 ? '' : 's'}`;
  // Resent with every later request: kept to the one fact the model needs.
  if (problems.length === 0) return `Plan recorded (${count}); every table and column exists.`;
  const lines = [`Plan recorded (${count}).`];
  lines.push('Names not in the database:');
  for (const p of problems) {
    const close = p.suggestions.length ? ` Close names: ${p.suggestions.map((s) => jsonData(s)).join(', ')}.` : '';
    lines.push(`- sub-question ${p.subQuestion + 1}: ${p.message}${close}`);
  }
  lines.push('Use search_column to find the right names (or submit_plan again with them).');
  return lines.join('\n');
}

/**
 * The plan as the prompt shows it: numbered sub-questions, their text as JSON strings (the person
 * may have typed them) and the chips as quoted identifiers.
 */
export function planAsData(plan: Plan, { fromAnotherRun = false } = {}): string {
  return plan.sub_questions
    .map((sq, i) => {
      const chips = sq.tables
        .map((t) => `${promptIdent(t.table)}(${t.columns.map((c) => (c === '*' ? c : promptIdent(c))).join(', ')})`)
        .join('; ');
      // A plan of another run (a confirmed example) may quote values it read at a fuller level.
      const text = fromAnotherRun ? quotedData(sq.text) : jsonData(sq.text);
      return `${i + 1}. ${text}${chips ? ` — ${chips}` : ''}`;
    })
    .join('\n');
}

/** Problems as one readable list (the CLI's exit message, the bad_plan error). */
export function problemsText(problems: PlanProblem[]): string {
  return problems
    .map((p) => {
      const close = p.suggestions.length ? ` Close names: ${p.suggestions.join(', ')}.` : '';
      return `- sub-question ${p.subQuestion + 1}: ${p.message}${close}`;
    })
    .join('\n');
}

/**
 * A plan from outside the model (the person's edit, a --plan file): its shape checked, then its
 * names. Either the plan in the schema's spelling, or what is wrong as one message plus the list.
 */
export function checkGivenPlan(
  raw: unknown,
  schema: Schema,
): { ok: true; plan: Plan } | { ok: false; message: string; problems: PlanProblem[] } {
  const parsed = planInput.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `- at ${i.path.length ? i.path.join('.') : 'the top'}: ${i.message}`)
      .join('\n');
    return {
      ok: false,
      message: `The plan is not in the submit_plan shape ({"sub_questions": [{"text", "tables": [{"table", "columns"}]}]}):\n${issues}`,
      problems: [],
    };
  }
  const { plan, problems } = validatePlan(parsed.data, schema);
  if (problems.length)
    return {
      ok: false,
      message: `The plan names things the database does not have:\n${problemsText(problems)}`,
      problems,
    };
  return { ok: true, plan };
}
