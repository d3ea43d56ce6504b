// The command line shared by `dowser direct|fix|optimize|explain`: the database, the same model
// flags as `ask` (provider, model, base URL, key variable, script), --json and --timeout, and one
// positional argument (the question, or the SQL). Mistakes are UsageErrors (exit 2).

import { parseCommandArgs, UsageError } from '../command';
import { parseTimeout, TIMEOUT_FLAG } from '../open-database';
import { DEFAULT_OPENAI_URL, type ModelFlags } from '../ask/model';
import { parsePrivacyFlag, type Provider } from '../ask/options';
import { PRIVACY_HELP } from '../ask/privacy';
import type { PrivacyLevel } from '../../core/privacy/disclose';

export const MODEL_FLAGS = {
  db: { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key-env': { type: 'string' },
  script: { type: 'string' },
  json: { type: 'boolean' },
  privacy: { type: 'string' },
  ...TIMEOUT_FLAG,
  help: { type: 'boolean', short: 'h' },
} as const;

export const MODEL_USAGE = `  --db <file>          the SQLite database file (required; read into memory, never written)
  --provider <p>       openai (any OpenAI-compatible server), anthropic, or scripted (required)
  --model <name>       the model name (required except for scripted)
  --base-url <url>     server URL (openai default ${DEFAULT_OPENAI_URL}; e.g. http://localhost:11434/v1)
  --api-key-env <VAR>  environment variable holding the key (default OPENAI_API_KEY or
                       ANTHROPIC_API_KEY); keys are never printed
  --script <file>      scripted provider: a JSON list of turns [{"text": "..."}]
  --json               print the result as JSON
  --timeout <s>        time limit of one query in seconds
${PRIVACY_HELP}
  -h, --help           show this help`;

export interface TaskOptions extends ModelFlags {
  db: string;
  /** The positional argument: the question (direct) or the SQL (fix, optimize, explain). */
  text: string;
  json: boolean;
  timeoutMs: number;
  /** --privacy; absent: the provider's default. */
  privacy?: PrivacyLevel;
}

const PROVIDERS: readonly Provider[] = ['openai', 'anthropic', 'scripted'];

type Flags = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** Null when --help was asked for; `values` carries the command's own flags too. */
export function parseTaskArgs<F extends Flags>(
  args: string[],
  extra: F,
  what: string,
): { options: TaskOptions; values: Record<string, string | boolean | undefined> } | null {
  const { values, positionals } = parseCommandArgs(args, { ...MODEL_FLAGS, ...extra });
  const v = values as Record<string, string | boolean | undefined>;
  const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  if (v.help) return null;
  if (!str('db')) throw new UsageError('--db <file> is required');
  if (positionals.length !== 1 || !positionals[0].trim())
    throw new UsageError(`give the ${what} as one argument, in quotes`);
  const provider = str('provider');
  if (!provider) throw new UsageError(`--provider is required: one of ${PROVIDERS.join(', ')}`);
  if (!(PROVIDERS as readonly string[]).includes(provider))
    throw new UsageError(`unknown provider "${provider}"; one of ${PROVIDERS.join(', ')}`);
  if (provider !== 'scripted' && !str('model'))
    throw new UsageError(`--model <name> is required for --provider ${provider}`);
  if (provider !== 'scripted' && str('script')) throw new UsageError('--script is only for --provider scripted');
  const keyEnv = str('api-key-env');
  if (keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv))
    throw new UsageError('--api-key-env takes the NAME of an environment variable (letters, digits, _), not the key');
  return {
    options: {
      db: str('db')!,
      text: positionals[0].trim(),
      provider: provider as Provider,
      model: str('model'),
      baseUrl: str('base-url'),
      apiKeyEnv: keyEnv,
      script: str('script'),
      json: !!v.json,
      timeoutMs: parseTimeout(str('timeout')),
      privacy: parsePrivacyFlag(str('privacy')),
    },
    values: v,
  };
}

/** `--margin 0.2`: a fraction between 0 and 1. */
export function parseFraction(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || !(n >= 0 && n < 1))
    throw new UsageError(`${flag} needs a fraction from 0 to below 1, not "${value}"`);
  return n;
}
