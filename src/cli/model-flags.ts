// The flags that choose a model, for every command that talks to one (ask, chat, direct, fix,
// optimize, explain, link, eval): parsed once, against the provider registry
// (core/llm/providers.ts), so a provider added there is taken by every command alike (issue 27).

import { answerLimits, DEFAULT_ANSWER_TIME_MS, type AnswerLimits } from '../core/agent/answer-budget';
import { providerById, providers, type ProviderSpec } from '../core/llm/providers';
import { DEFAULT_MODEL_WAIT_MS, streamLimits, type StreamLimits } from '../core/llm/stream-guard';
import { parseSeconds, UsageError } from './command';

/** How long the model may keep a command waiting (decision 068): every command that talks to one takes them. */
export const MODEL_LIMIT_FLAGS = {
  'model-timeout': { type: 'string' },
  'answer-time': { type: 'string' },
} as const;

export const PROVIDER_FLAGS = {
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key-env': { type: 'string' },
  script: { type: 'string' },
  ...MODEL_LIMIT_FLAGS,
} as const;

/** What choosing a model takes from the command line. */
export interface ModelFlags {
  /** A provider id of the registry. */
  provider: string;
  /** Absent only for a scripted provider. */
  model?: string;
  baseUrl?: string;
  /** Name of the environment variable holding the key, when given with --api-key-env. */
  apiKeyEnv?: string;
  script?: string;
  /** --model-timeout: the longest wait for a reply to begin, and between its pieces. */
  modelWaitMs?: number;
  /** --answer-time: the time limit of one answer. */
  answerTimeMs?: number;
}

type FlagValues = Partial<Record<keyof typeof PROVIDER_FLAGS, string | boolean | undefined>>;

/** The ids a command takes (`extra`: its own pseudo-providers, such as eval's `gold`). */
export function providerChoices(extra: readonly string[] = []): string[] {
  return [...providers('cli').map((p) => p.id), ...extra];
}

/**
 * The model flags, checked: undefined when --provider is absent and `required` is false (the
 * command then works without a model). `scriptFlag`: the flag a scripted provider reads its turns
 * from in this command (eval takes a folder).
 */
export function parseModelFlags(
  values: FlagValues,
  { required = true, scriptFlag = '--script' }: { required?: boolean; scriptFlag?: string } = {},
): ModelFlags | undefined {
  const str = (k: keyof typeof PROVIDER_FLAGS) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const id = str('provider');
  if (id === undefined) {
    if (required) throw new UsageError(`--provider is required: one of ${providerChoices().join(', ')}`);
    return undefined;
  }
  const spec = cliProvider(id);
  if (spec.needsModel && !str('model')) throw new UsageError(`--model <name> is required for --provider ${id}`);
  if (!spec.scripted && str('script')) throw new UsageError(`${scriptFlag} is only for a scripted provider`);
  const keyEnv = str('api-key-env');
  // A name, not a value: refusing anything else keeps a pasted key out of error messages too.
  if (keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv))
    throw new UsageError('--api-key-env takes the NAME of an environment variable (letters, digits, _), not the key');
  return {
    provider: id,
    model: str('model'),
    baseUrl: str('base-url'),
    apiKeyEnv: keyEnv,
    script: str('script'),
    ...parseModelLimits(values),
  };
}

/** --model-timeout and --answer-time, each left out when not given. */
export function parseModelLimits(values: FlagValues): Pick<ModelFlags, 'modelWaitMs' | 'answerTimeMs'> {
  const wait = values['model-timeout'];
  const answer = values['answer-time'];
  return {
    ...(typeof wait === 'string' ? { modelWaitMs: parseSeconds(wait, '--model-timeout') } : {}),
    ...(typeof answer === 'string' ? { answerTimeMs: parseSeconds(answer, '--answer-time') } : {}),
  };
}

/** The wait limits of the model's requests, with the flag that raises them. */
export function cliStreamLimits(o: Pick<ModelFlags, 'modelWaitMs'>): StreamLimits {
  return streamLimits(o.modelWaitMs ?? DEFAULT_MODEL_WAIT_MS, 'raise it with --model-timeout <seconds>');
}

/** The budget of one answer, with the flag that raises its time. */
export function cliAnswerLimits(o: Pick<ModelFlags, 'answerTimeMs'>): AnswerLimits {
  return answerLimits(o.answerTimeMs ?? DEFAULT_ANSWER_TIME_MS, 'raise it with --answer-time <seconds>');
}

/** The registry's entry for a provider the CLI takes, or a UsageError naming the choices. */
export function cliProvider(id: string, extra: readonly string[] = []): ProviderSpec {
  const spec = providerById(id);
  if (!spec?.inCli) throw new UsageError(`unknown provider "${id}"; one of ${providerChoices(extra).join(', ')}`);
  return spec;
}

/** `openai|anthropic|scripted`: the ids for a usage line. */
export function providerList(extra: readonly string[] = []): string {
  return providerChoices(extra).join('|');
}

/** The --provider line of a command's help, from the registry. */
export function providerUsage(): string {
  const list = providers('cli').map((p) => p.id);
  return `  --provider <p>       ${list.join(', ')} (openai: any OpenAI-compatible server)`;
}

/**
 * The --model-timeout and --answer-time lines of a command's help (`indent`: where the flag's text
 * starts; `answer`: what the answer time limits in this command, when not one answer).
 */
export function modelLimitsUsage(indent = 23, answer = 'one answer'): string {
  const pad = ' '.repeat(indent);
  return [
    `  --model-timeout <s>`.padEnd(indent) + `longest wait in seconds for the model's reply to begin, and`,
    `${pad}between its pieces (default ${DEFAULT_MODEL_WAIT_MS / 1000}); past it the request is stopped`,
    `  --answer-time <s>`.padEnd(indent) +
      `time limit of ${answer} in seconds (default ${DEFAULT_ANSWER_TIME_MS / 1000}; time`,
    `${pad}spent answering a question of the model is not counted); past it the`,
    `${pad}run stops with an error, keeping what it did`,
  ].join('\n');
}

/** The --api-key-env lines of a command's help (`indent`: where the flag's text starts). */
export function keyEnvUsage(indent = 23): string {
  const vars = providers('cli')
    .flatMap((p) => (p.keyVariable ? [p.keyVariable] : []))
    .join(', ');
  const pad = ' '.repeat(indent);
  return [
    `  --api-key-env <VAR>`.padEnd(indent) + 'environment variable holding the key. Without it the',
    `${pad}provider's own variable (${vars}) is read and`,
    `${pad}sent only to its own server: another --base-url gets no key (local`,
    `${pad}servers need none).`,
    `${pad}Keys are never printed or written to transcripts.`,
  ].join('\n');
}
