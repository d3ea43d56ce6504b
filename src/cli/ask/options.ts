// `dowser ask` arguments: parsed and checked here, so the command file only runs things. Every
// mistake a person can make on the command line is a UsageError (exit 2) before any work starts.

import { parseServerFlags, SERVER_FLAGS, type ServerChoice } from '../server-database';
import { parsePrivacyLevel, PRIVACY_LEVELS, type PrivacyLevel } from '../../core/privacy/disclose';
import { parseCommandArgs, parsePositiveInt, UsageError } from '../command';
import { ANSWER_MODES, DEFAULT_ANSWER_MODE, isAnswerMode, type AnswerMode } from '../../core/agent/answer-mode';
import { parseTimeout, TIMEOUT_FLAG } from '../open-database';
import { parseTableFileFlags, TABLE_FILE_FLAGS, type TableFileChoice } from '../table-file-flags';
import { CHART_FLAGS, parseChartFlags, type ChartRequest } from '../chart-flags';
import { cliProvider, parseModelFlags, PROVIDER_FLAGS } from '../model-flags';

/** A provider id of the registry (core/llm/providers.ts). */
export type Provider = string;

export interface AskOptions {
  /** How the question is answered (core/agent/answer-mode.ts; default Auto); a plan or a step check is the agent's. */
  mode?: AnswerMode;
  db: string;
  question: string;
  hints?: string;
  provider: Provider;
  /** Absent only for the scripted provider. */
  model?: string;
  baseUrl?: string;
  /** Name of the environment variable holding the key, when given with --api-key-env. */
  apiKeyEnv?: string;
  script?: string;
  tools?: 'native' | 'text';
  maxTurns?: number;
  /** Rows of the final answer carried by the `final` event (default 20). */
  maxRows?: number;
  transcript?: string;
  json: boolean;
  /** A plan file in the submit_plan shape, run as confirmed by the user. */
  plan?: string;
  /** 1-based sub-question of --plan to check instead of answering the question. */
  checkStep?: number;
  /** ask_user gets the first option, logged, without asking anyone. */
  nonInteractive: boolean;
  /** Show the model's plan and ask "Continue? [Y/n]" before going on. */
  pauseAfterPlan: boolean;
  /** Time limit of one query or tool call, ms (--timeout); the page's default when absent. */
  timeoutMs?: number;
  /** --model-timeout: the longest wait for the model's reply to begin, and between its pieces. */
  modelWaitMs?: number;
  /** --answer-time: the time limit of the answer. */
  answerTimeMs?: number;
  /** What of the cell values may reach the model (--privacy); absent: the provider's default. */
  privacy?: PrivacyLevel;
  /** A transcript (--transcript of an earlier run) whose conversation the question continues. */
  continueFrom?: string;
  /** --chart: the answer's rows also written as a chart. */
  chart?: ChartRequest;
  /** --header, --encoding: how a --db table file is imported. */
  /** How the --db is opened: a table file's --header and --encoding, a server's --password-env and --schema. */
  tableFile?: TableFileChoice & { server?: ServerChoice };
}

export const ASK_FLAGS = {
  db: { type: 'string' },
  question: { type: 'string' },
  hints: { type: 'string' },
  ...PROVIDER_FLAGS,
  tools: { type: 'string' },
  'max-turns': { type: 'string' },
  'max-rows': { type: 'string' },
  transcript: { type: 'string' },
  json: { type: 'boolean' },
  plan: { type: 'string' },
  'check-step': { type: 'string' },
  'non-interactive': { type: 'boolean' },
  'pause-after-plan': { type: 'boolean' },
  privacy: { type: 'string' },
  mode: { type: 'string' },
  continue: { type: 'string' },
  ...TABLE_FILE_FLAGS,
  ...SERVER_FLAGS,
  ...TIMEOUT_FLAG,
  ...CHART_FLAGS,
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--privacy full|matches|schema`; undefined when not given. */
export function parsePrivacyFlag(text: string | undefined): PrivacyLevel | undefined {
  if (text === undefined) return undefined;
  const level = parsePrivacyLevel(text);
  if (!level) throw new UsageError(`--privacy is one of ${PRIVACY_LEVELS.join(', ')}, not "${text}"`);
  return level;
}

/** Flags of `dowser ask` that mean nothing in `dowser chat`, where questions are typed one by one. */
const NOT_IN_CHAT = [
  'question',
  'plan',
  'check-step',
  'continue',
  'transcript',
  'json',
  'pause-after-plan',
  ...(Object.keys(CHART_FLAGS) as Array<keyof typeof CHART_FLAGS>),
] as const;

/**
 * Null when --help was asked for. `chat`: the options of `dowser chat`, the same but for the
 * question (typed at the prompt) and the flags of a single run.
 */
export function parseAskArgs(args: string[], { chat = false } = {}): AskOptions | null {
  const { values: v, positionals } = parseCommandArgs(args, ASK_FLAGS);
  if (v.help) return null;
  if (positionals.length)
    throw new UsageError(
      chat
        ? `unexpected argument "${positionals[0]}" (type questions at the prompt)`
        : `unexpected argument "${positionals[0]}" (put the question in --question "…")`,
    );
  if (!v.db) throw new UsageError('--db <file> is required');
  if (chat) {
    const refused = NOT_IN_CHAT.find((f) => v[f] !== undefined);
    if (refused) throw new UsageError(`--${refused} is for dowser ask; in dowser chat type questions at the prompt`);
    v.question = '(typed at the prompt)';
  }
  if (v['check-step'] !== undefined && !v.plan)
    throw new UsageError('--check-step N needs --plan <plan.json> (the plan whose sub-question N is checked)');
  // A step check answers one sub-question of the plan, so the question itself is optional there.
  if (!v.question?.trim() && v['check-step'] === undefined) throw new UsageError('--question "<question>" is required');
  const model = parseModelFlags(v)!;
  if (v.tools !== undefined && v.tools !== 'native' && v.tools !== 'text')
    throw new UsageError(`--tools is native or text, not "${v.tools}"`);
  if (v.mode !== undefined && !isAnswerMode(v.mode))
    throw new UsageError(`--mode is ${ANSWER_MODES.join(', ')}, not "${v.mode}"`);
  // Scripted turns (the built-in demo, test scripts) are an agent's run unless said otherwise.
  const mode = v.mode ?? (cliProvider(model.provider).scripted ? 'agent' : DEFAULT_ANSWER_MODE);
  if (mode === 'direct' && v.plan) throw new UsageError('--plan is carried out by the agent: not with --mode direct');
  const chart = parseChartFlags(v);
  if (chart && v['check-step'] !== undefined)
    throw new UsageError('--chart draws the answer; --check-step checks one step of a plan: not both');
  if (v.continue !== undefined && v['check-step'] !== undefined)
    throw new UsageError('--continue follows up on a conversation; --check-step checks one step of a plan: not both');
  return {
    mode,
    db: v.db,
    question: v.question?.trim() ?? '',
    hints: v.hints?.trim() || undefined,
    ...model,
    tools: v.tools,
    maxTurns: v['max-turns'] === undefined ? undefined : parsePositiveInt(v['max-turns'], '--max-turns', 12),
    maxRows: v['max-rows'] === undefined ? undefined : parsePositiveInt(v['max-rows'], '--max-rows', 20),
    transcript: v.transcript,
    json: !!v.json,
    plan: v.plan,
    checkStep: v['check-step'] === undefined ? undefined : parsePositiveInt(v['check-step'], '--check-step', 1),
    nonInteractive: !!v['non-interactive'],
    pauseAfterPlan: !!v['pause-after-plan'],
    timeoutMs: parseTimeout(v.timeout),
    privacy: parsePrivacyFlag(v.privacy),
    tableFile: { ...parseTableFileFlags(v), server: parseServerFlags(v) },
    ...(v.continue !== undefined ? { continueFrom: v.continue } : {}),
    ...(chart ? { chart } : {}),
  };
}
