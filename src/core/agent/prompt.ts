// The agent's prompt (Interactive-T2S): instructions (tools, process, rules), exemplars on made-up
// databases (two in the text protocol, one natively), the target database (every column in a
// compact listing when it fits the budget, else a table-level summary and the tools find columns:
// `schemaForPrompt`), the structure linker's hints, the question and optional hints. Everything that comes from the
// user or the file (question, hints, linked spans, values) is written as a JSON string literal:
// data to read, never text the model could take as instructions.

import { hasDateTypes, todayLine } from '../prompt/today';
import { dialectFacts, inDialect } from '../dialect/prompt-text';
import { z } from 'zod';
import type { ToolSpec } from '../llm/types';
import { schemaForPrompt } from '../prompt/schema-text';
import type { QuestionLink } from '../retrieval/linker';
import { linkHints } from './link-hints';
import { threadText, type PriorTurn } from './thread';
import { DATA_RULE } from '../prompt/data-rule';
import { APP_TOOLS, TOOL_NAMES, type ToolName, type ToolRegistry } from '../tools/registry';
import { jsonData, schemaNames, sqlData } from '../tools/quote-data';
import type { Schema } from '../types';
import { ASK_USER_DESCRIPTION, ASK_USER_RULE, askUserInput } from './ask-user';
import { EXEMPLARS, NATIVE_EXEMPLARS, renderExemplar } from './exemplars';
import { planAsData, planInput, SUBMIT_PLAN_DESCRIPTION, type Plan } from './plan';

export type AgentMode = 'native' | 'text';

export const doneInput = z.strictObject({
  sql: z.string().trim().min(1).describe('the SQL that answers the question'),
  explanation: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('what its result shows, in plain words for someone who does not read SQL'),
});

// done runs its SQL (again) to show it. It names its SQL (issue 22: `done {}` took the last SQL
// that ran, which could be a probe run after the answer). With an explanation of a result the
// model has seen, the run ends there: the answer turn explains it, no further request. Otherwise
// a short check of the result writes the explanation, and a problem it finds goes back to the
// model once — cheaper than a whole agent turn spent on execute_sql just to finish.
const DONE_DESCRIPTION =
  'Finish with the SQL that answers the question (it is run and checked) and, if you saw its rows, an explanation of them.';

/** Every function the agent may call, in the order a run uses them. */
export const AGENT_TOOL_NAMES = ['submit_plan', ...TOOL_NAMES, 'ask_user', 'done'] as const;

export type AgentToolName = (typeof AGENT_TOOL_NAMES)[number];

/** What a run with a confirmed plan offers: everything but submit_plan (the person planned). */
export const CONFIRMED_TOOL_NAMES: readonly AgentToolName[] = AGENT_TOOL_NAMES.filter((n) => n !== 'submit_plan');

/** The stop sequence of the text protocol: the model must not write observations itself. */
export const TEXT_STOP = '\nObservation:';

// Validation-only keywords: the arguments are checked with zod when they arrive (a bad call comes
// back as an observation saying what was wrong), so sending them costs tokens on every request
// and tells the model nothing it needs to call well.
const VALIDATION_ONLY = new Set([
  '$schema',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'default',
  'additionalProperties',
]);

/** A JSON Schema without the keywords only the validator needs. */
export function compactSchema(schema: unknown): Record<string, unknown> {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      if (!VALIDATION_ONLY.has(k)) out[k] = k === 'properties' ? mapValues(x, strip) : strip(x);
    return out;
  };
  return strip(schema) as Record<string, unknown>;
}

const mapValues = (o: unknown, f: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(o as Record<string, unknown>).map(([k, v]) => [k, f(v)]));

/** The registry's tools as the model is given them: name, description, the JSON schema of their input. */
export function retrievalToolSpecs(registry: ToolRegistry = APP_TOOLS): ToolSpec[] {
  return Object.entries(registry).map(([name, tool]) => ({
    name,
    description: tool.description,
    parameters: compactSchema(z.toJSONSchema(tool.input as z.ZodType, { io: 'input' })),
  }));
}

/** Native tool specs (the retrieval tools from their zod schemas, plus the agent's own), for the names offered. */
export function agentToolSpecs(offered: readonly AgentToolName[] = AGENT_TOOL_NAMES): ToolSpec[] {
  const schemaOf = (s: z.ZodType) => compactSchema(z.toJSONSchema(s, { io: 'input' }));
  const all: ToolSpec[] = [
    { name: 'submit_plan', description: SUBMIT_PLAN_DESCRIPTION, parameters: schemaOf(planInput) },
    ...retrievalToolSpecs(),
    { name: 'ask_user', description: ASK_USER_DESCRIPTION, parameters: schemaOf(askUserInput) },
    { name: 'done', description: DONE_DESCRIPTION, parameters: schemaOf(doneInput) },
  ];
  return all.filter((t) => (offered as readonly string[]).includes(t.name));
}

/**
 * The steps, written for how the model calls tools: natively, calls that do not depend on each
 * other go in one turn (the plan with its value lookups: one request fewer per run); in the text
 * protocol one action per turn. With a confirmed plan the person has made the plan.
 */
export function processText(
  mode: AgentMode,
  { confirmed, tools = APP_TOOLS }: { confirmed: boolean; tools?: ToolRegistry },
): string {
  const together = mode === 'native';
  // Each tool says when to use it (its record's `when`): value lookups go with the plan, the
  // column and join lookups share a step, running SQL has its own, and any other tool one more.
  const when = (name: ToolName) => tools[name].when;
  const placed: string[] = ['search_value', 'search_column', 'find_shortest_path', 'execute_sql'];
  const steps = [
    confirmed
      ? 'The plan below is confirmed by the user: do not re-plan. Start from the tables and columns it names' +
        (together ? `, with ${when('search_value')} (in one turn).` : '.')
      : together
        ? `submit_plan: the question as sub-questions, each with its tables and columns; in the same turn, ${when('search_value')}.`
        : 'submit_plan: the question as sub-questions, each with its tables and columns.',
    ...(confirmed || together ? [] : [`${when('search_value')}.`]),
    `${when('search_column')}; ${when('find_shortest_path')}.`,
    `${when('execute_sql')}.`,
    ...Object.keys(tools)
      .filter((n) => !placed.includes(n))
      .map((n) => `${tools[n].when}.`),
    `done with ${confirmed ? 'one SQL that answers the whole question, all sub-questions in view' : 'the SQL that answers the question'}: it is run and checked against the question; if you saw its rows, add an explanation of them.`,
  ];
  return `Steps:\n${steps.map((t, i) => `${i + 1}. ${t}`).join('\n')}`;
}

export const RULES_TEXT = `Rules:
- One tool call per turn, after a short thought.
- Use values exactly as the tools return them, unless the question says how to match (contains, starts with, ignoring case).
- SQLite, read-only. Select only what is asked, in that order.
- ${DATA_RULE}`;

const RULES_NATIVE = RULES_TEXT.replace(
  '- One tool call per turn, after a short thought.',
  '- A short thought, then the calls; calls that do not depend on each other go in one turn.',
);

/** The rules for the protocol the model speaks (the step check shares them). */
export const rulesFor = (mode: AgentMode) => (mode === 'native' ? RULES_NATIVE : RULES_TEXT);

/** Text protocol only (native mode sends the specs in the request's tools): name, arguments, what it does. */
export function toolList(offered: readonly AgentToolName[] = AGENT_TOOL_NAMES): string {
  return agentToolSpecs(offered)
    .map((t) => {
      const props = (t.parameters.properties ?? {}) as Record<string, unknown>;
      const required = new Set((t.parameters.required as string[] | undefined) ?? []);
      const args = Object.keys(props).map((k) => (required.has(k) ? k : `${k}?`));
      return `- ${t.name} {${args.join(', ')}}: ${t.description}`;
    })
    .join('\n');
}

export const TEXT_FORMAT = `Answer format, every turn:
Thought: what you know and what you do next (one or two sentences)
Action: tool_name {"argument": "value"}
The Action line holds the tool name, a space and the arguments as one JSON object on the same line. Then stop: the observation is written for you.`;

export const NATIVE_FORMAT = `The example writes calls as "Action: name {arguments}"; you make them as tool calls.`;

export interface PromptInput {
  question: string;
  hints?: string;
  schema: Schema;
  links?: readonly QuestionLink[];
  mode: AgentMode;
  /** The person's plan: shown as confirmed, submit_plan not offered. */
  confirmedPlan?: Plan;
  /** The confirmed plan came from another run: its quoted values are marked (quotedData). */
  planFromAnotherRun?: boolean;
  /**
   * Runs the user marked correct on this database, most similar first (issue 5); `imported`
   * ones came from a file (the user let them be used, but did not confirm them as theirs).
   */
  userExamples?: ReadonlyArray<{ question: string; plan: Plan | null; sql: string; source?: 'user' | 'imported' }>;
  /** Auto handed over: the queries it tried and what they showed (already quoted as data). */
  carryOver?: string;
  /** The conversation's earlier turns: the question may follow up on them. */
  history?: readonly PriorTurn[];
  /** The person's date (YYYY-MM-DD), said when a column is typed as a date or time. */
  today?: string;
}

/** The user's confirmed examples, quoted as data: question, plan, the SQL they accepted. */
export function userExamplesText(
  examples: NonNullable<PromptInput['userExamples']>,
  names?: ReadonlySet<string>,
): string {
  return examples
    .map((e, i) =>
      [
        e.source === 'imported'
          ? `Example ${i + 1} (imported from a file for this database; not confirmed by the user, may be wrong):`
          : `User example ${i + 1} (confirmed correct by the user on this database):`,
        `Question: ${jsonData(e.question)}`,
        ...(e.plan ? [`Plan:\n${planAsData(e.plan, { fromAnotherRun: true })}`] : []),
        // Confirmed in another run, maybe at a fuller privacy level: its literals are values.
        `SQL: ${sqlData(e.sql, names)}`,
      ].join('\n'),
    )
    .join('\n\n');
}

export interface AgentPrompt {
  system: string;
  user: string;
  /** Native mode: the functions, for ChatRequest.tools. */
  tools?: ToolSpec[];
  /** Text mode: ChatRequest.stop. */
  stop?: string[];
}

/** How the database is introduced: every column when the schema is small, else tables only. */
export function databaseSection(schema: Schema): string {
  const shown = schemaForPrompt(schema);
  return shown.columns
    ? `Database (every table with its columns, → a foreign key):\n${shown.text}`
    : `Database (tables only; find columns with search_column):\n${shown.text}`;
}

function examplesSection(mode: AgentMode): string {
  const examples = mode === 'text' ? EXEMPLARS : NATIVE_EXEMPLARS;
  const title = examples.length === 1 ? 'Example (another database):' : 'Examples (other databases):';
  return `${title}\n\n${examples.map((e, i) => renderExemplar(e, i + 1)).join('\n\n')}`;
}

export function buildAgentPrompt(input: PromptInput): AgentPrompt {
  const confirmed = input.confirmedPlan;
  const offered = confirmed ? CONFIRMED_TOOL_NAMES : AGENT_TOOL_NAMES;
  // Everything here is the same on every turn of a run, so providers can cache it (the
  // conversation only grows after it): nothing per-turn belongs in the system prompt.
  const dialect = input.schema.dialect;
  // Written for SQLite; said for the database's engine (the tool list's execute_sql included).
  const system = inDialect(
    [
      'You answer a question about a SQLite database: explore it with the tools, then write one read-only SQL query.',
      ...(input.mode === 'text' ? [`Tools (call as "Action: name {json}"):\n${toolList(offered)}`] : []),
      confirmed
        ? `${processText(input.mode, { confirmed: true })}\nThe examples start with submit_plan; this run starts after it.`
        : processText(input.mode, { confirmed: false }),
      `${rulesFor(input.mode)}\n${ASK_USER_RULE}`,
      input.mode === 'text' ? TEXT_FORMAT : NATIVE_FORMAT,
      examplesSection(input.mode),
    ].join('\n\n'),
    dialect,
  );

  const user = [databaseSection(input.schema)];
  const facts = dialectFacts(input.schema);
  if (facts) user.push(facts);
  if (input.today && hasDateTypes(input.schema)) user.push(todayLine(input.today));
  // With every column listed, only the question's stored values add something the model cannot read.
  const columnsListed = schemaForPrompt(input.schema).columns;
  const hints = input.links?.length ? linkHints(input.links, { columnsListed }) : '';
  if (hints)
    user.push(
      `${columnsListed ? 'Question words that are stored values' : 'Question words linked to the database'} (automatic, may be wrong):\n${hints}`,
    );
  if (input.userExamples?.length)
    user.push(
      `${input.userExamples.some((e) => e.source === 'imported') ? 'Worked examples for this database, confirmed by the user or imported from a file' : 'Worked examples the user confirmed on this database'} (reuse what fits; the question below may differ):\n${userExamplesText(input.userExamples, schemaNames(input.schema))}`,
    );
  const thread = threadText(input.history ?? [], undefined, schemaNames(input.schema));
  if (thread) user.push(thread);
  if (input.carryOver)
    user.push(
      `Tried before the tools, without settling the answer (use what it shows; do not repeat it):\n${input.carryOver}`,
    );
  user.push(`Question: ${jsonData(input.question)}`);
  if (input.hints?.trim()) user.push(`Hints from the user: ${jsonData(input.hints.trim())}`);
  if (confirmed) {
    user.push(
      `Plan confirmed by the user (sub-questions quoted as data; tables and their columns after the dash):\n${planAsData(confirmed, { fromAnotherRun: input.planFromAnotherRun })}`,
    );
    user.push(
      'Do not re-plan. Start from these tables and columns: locate the values, join, execute, and write one SQL that answers every sub-question together.',
    );
  } else {
    user.push(
      input.mode === 'text' ? 'Begin with the plan (Action: submit_plan).' : 'Begin with the plan (call submit_plan).',
    );
  }

  return input.mode === 'native'
    ? {
        system,
        user: user.join('\n\n'),
        tools: agentToolSpecs(offered).map((t) => ({ ...t, description: inDialect(t.description, dialect) })),
      }
    : { system, user: user.join('\n\n'), stop: [TEXT_STOP] };
}
