// `dowser eval` arguments, checked before any work starts (mistakes are UsageErrors, exit 2).
// The provider options are `dowser ask`'s; the model itself is made by ask/model.ts.

import { parseCommandArgs, parsePositiveInt, UsageError } from '../command';
import type { AskOptions } from '../ask/options';
import type { ConversationKind, DatasetKind } from './datasets';
import { ANSWER_MODES, DEFAULT_ANSWER_MODE, type AnswerMode } from '../../core/agent/answer-mode';
import { cliProvider, MODEL_LIMIT_FLAGS, parseModelFlags, parseModelLimits, providerChoices } from '../model-flags';
import { parsePrivacyFlag } from '../ask/options';
import { privacyFor } from '../ask/privacy';
import type { PrivacyLevel } from '../../core/privacy/disclose';

/** A provider id of the registry (core/llm/providers.ts), or `gold` (the reference SQL as the answer). */
export type EvalProvider = string;

export interface EvalOptions {
  /** sparc / cosql: interactions of follow-ups, scored by Spider's rule turn by turn. */
  dataset: DatasetKind | ConversationKind;
  data: string;
  questions?: string;
  databases?: string;
  descriptions?: string;
  provider: EvalProvider;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  /** --model-timeout: the longest wait for the model's reply to begin, and between its pieces. */
  modelWaitMs?: number;
  /** --answer-time: the time limit of one question's answer; past it the question is failed. */
  answerTimeMs?: number;
  /** scripted: folder of turn files, `<id>.json` (or `spider-dev-<id>.json` as in ../shared/datasets/recorded). */
  scriptDir?: string;
  mode: AnswerMode;
  /** BIRD's evidence given to the model as hints. */
  hints: boolean;
  tools?: 'native' | 'text';
  maxTurns?: number;
  compactObservations: boolean;
  /** SParC / CoSQL: each turn with the earlier ones (thread, the default) or asked alone (none). */
  context: 'thread' | 'none';
  limit?: number;
  ids?: string[];
  concurrency: number;
  /** Per-query limit for scoring; default the evaluator's (Spider 60 s, BIRD 30 s). */
  timeLimitMs?: number;
  /** Rows read per query when scoring. */
  maxResultRows: number;
  /**
   * Ask on a server instead of the SQLite files (issue 36): `postgres://…/spider_{db}`, `{db}` the
   * question's database id; the reference still runs on the dataset's SQLite file.
   */
  dbUrl?: string;
  retryFailed: boolean;
  out: string;
  /** What of each database's values may reach the model: --privacy, else the provider's default. */
  privacy: PrivacyLevel;
  /** Whether --privacy chose it (said so on stderr). */
  privacyChosen: boolean;
}

export const EVAL_FLAGS = {
  dataset: { type: 'string' },
  data: { type: 'string' },
  questions: { type: 'string' },
  databases: { type: 'string' },
  descriptions: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  'script-dir': { type: 'string' },
  ...MODEL_LIMIT_FLAGS,
  mode: { type: 'string' },
  hints: { type: 'string' },
  tools: { type: 'string' },
  'max-turns': { type: 'string' },
  'compact-observations': { type: 'boolean' },
  context: { type: 'string' },
  limit: { type: 'string' },
  ids: { type: 'string' },
  concurrency: { type: 'string' },
  'time-limit': { type: 'string' },
  'max-result-rows': { type: 'string' },
  'db-url': { type: 'string' },
  'retry-failed': { type: 'boolean' },
  out: { type: 'string' },
  privacy: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Eval's own choice besides the registry's providers. */
const GOLD = 'gold';

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${flag} is ${allowed.join(' or ')}, not "${value}"`);
  return value as T;
}

/** Null when --help was asked for. */
export function parseEvalArgs(args: string[]): EvalOptions | null {
  const { values: v, positionals } = parseCommandArgs(args, EVAL_FLAGS);
  if (v.help) return null;
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (!v.dataset) throw new UsageError('--dataset spider|bird|sparc|cosql is required');
  const dataset = oneOf(v.dataset, ['spider', 'bird', 'sparc', 'cosql'] as const, '--dataset', 'spider');
  if (!v.data) throw new UsageError('--data <dir> is required (the dataset folder)');
  if (!v.out) throw new UsageError('--out <dir> is required (results, transcripts and the summary go there)');
  if (!v.provider) throw new UsageError(`--provider is required: one of ${providerChoices([GOLD]).join(', ')}`);
  const provider = v.provider;
  if (provider !== GOLD) {
    // The model flags as every command reads them; a scripted provider reads a folder of turn files here.
    const spec = cliProvider(provider, [GOLD]);
    parseModelFlags({ ...v, script: v['script-dir'] }, { scriptFlag: '--script-dir' });
    if (spec.scripted && !v['script-dir'])
      throw new UsageError(`--provider ${provider} needs --script-dir <dir> (one turn file per question, <id>.json)`);
  } else if (v['script-dir']) throw new UsageError('--script-dir is only for a scripted provider');
  const ids = v.ids
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (v.ids !== undefined && !ids?.length) throw new UsageError('--ids needs a comma-separated list of question ids');
  const chosen = parsePrivacyFlag(v.privacy);
  // The reference SQL reaches no model: its level is moot, and full changes nothing.
  const privacy = provider === GOLD ? 'full' : privacyFor({ provider, baseUrl: v['base-url'], privacy: chosen });
  const seconds = v['time-limit'];
  if (seconds !== undefined && !(/^\d+(\.\d+)?$/.test(seconds) && Number(seconds) > 0))
    throw new UsageError(`--time-limit takes seconds above 0, not "${seconds}"`);
  return {
    dataset,
    data: v.data,
    questions: v.questions,
    databases: v.databases,
    descriptions: v.descriptions,
    provider,
    model: v.model,
    baseUrl: v['base-url'],
    apiKeyEnv: v['api-key-env'],
    ...parseModelLimits(v),
    scriptDir: v['script-dir'],
    mode: oneOf(v.mode, ANSWER_MODES, '--mode', DEFAULT_ANSWER_MODE),
    hints: oneOf(v.hints, ['on', 'off'] as const, '--hints', 'off') === 'on',
    tools: v.tools === undefined ? undefined : oneOf(v.tools, ['native', 'text'] as const, '--tools', 'native'),
    compactObservations: !!v['compact-observations'],
    context: oneOf(v.context, ['thread', 'none'] as const, '--context', 'thread'),
    maxTurns: v['max-turns'] === undefined ? undefined : parsePositiveInt(v['max-turns'], '--max-turns', 12),
    limit: v.limit === undefined ? undefined : parsePositiveInt(v.limit, '--limit', 1),
    ids,
    concurrency: parsePositiveInt(v.concurrency, '--concurrency', 1),
    timeLimitMs: seconds === undefined ? undefined : Math.round(Number(seconds) * 1000),
    maxResultRows: parsePositiveInt(v['max-result-rows'], '--max-result-rows', 100_000),
    ...(v['db-url'] !== undefined ? { dbUrl: parseDbUrl(v['db-url']) } : {}),
    retryFailed: !!v['retry-failed'],
    out: v.out,
    privacy,
    privacyChosen: chosen !== undefined,
  };
}

function parseDbUrl(url: string): string {
  if (!/^postgres(ql)?:\/\//i.test(url)) throw new UsageError('--db-url takes a postgres://… URL');
  if (!url.includes('{db}'))
    throw new UsageError(
      "--db-url needs {db} where each question's database id goes, e.g. postgres://me@host/spider_{db}",
    );
  return url;
}

/** The provider part as `dowser ask` reads it, for ask/model.ts. */
export function askOptionsFor(o: EvalOptions): AskOptions {
  return {
    db: '',
    question: '',
    provider: o.provider,
    model: o.model,
    baseUrl: o.baseUrl,
    apiKeyEnv: o.apiKeyEnv,
    modelWaitMs: o.modelWaitMs,
    json: false,
    nonInteractive: true,
    pauseAfterPlan: false,
  };
}
