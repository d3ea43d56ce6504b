// The command line shared by `dowser direct|fix|optimize|explain`: the database, the same model
// flags as `ask` (provider, model, base URL, key variable, script), --json and --timeout, and one
// positional argument (the question, or the SQL). Mistakes are UsageErrors (exit 2).

import { parseServerFlags, SERVER_FLAGS, SERVER_USAGE, type ServerChoice } from '../server-database';
import { parseCommandArgs, UsageError } from '../command';
import { parseTimeout, TIMEOUT_FLAG } from '../open-database';
import { parseTableFileFlags, TABLE_FILE_FLAGS, tableFileUsage, type TableFileChoice } from '../table-file-flags';
import { DEFAULT_OPENAI_URL, type ModelFlags } from '../ask/model';
import { parsePrivacyFlag } from '../ask/options';
import { keyEnvUsage, modelLimitsUsage, parseModelFlags, PROVIDER_FLAGS, providerUsage } from '../model-flags';
import { PRIVACY_HELP } from '../ask/privacy';
import type { PrivacyLevel } from '../../core/privacy/disclose';

export const MODEL_FLAGS = {
  db: { type: 'string' },
  ...PROVIDER_FLAGS,
  json: { type: 'boolean' },
  privacy: { type: 'string' },
  ...TABLE_FILE_FLAGS,
  ...SERVER_FLAGS,
  ...TIMEOUT_FLAG,
  help: { type: 'boolean', short: 'h' },
} as const;

export const MODEL_USAGE = `  --db <file>          the SQLite database file (required; read into memory, never written)
${providerUsage()} (required)
  --model <name>       the model name (required except for scripted)
  --base-url <url>     server URL (openai default ${DEFAULT_OPENAI_URL}; e.g. http://localhost:11434/v1)
${keyEnvUsage()}
  --script <file>      scripted provider: a JSON list of turns [{"text": "..."}]
  --json               print the result as JSON
  --timeout <s>        time limit of one query in seconds
${tableFileUsage(23)}
${SERVER_USAGE}
${modelLimitsUsage(23, 'the command')}
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
  /** --header, --encoding: how a --db table file is imported; --password-env, --schema: a server's. */
  tableFile: TableFileChoice & { server?: ServerChoice };
}

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
  const model = parseModelFlags(v)!;
  return {
    options: {
      db: str('db')!,
      text: positionals[0].trim(),
      ...model,
      json: !!v.json,
      timeoutMs: parseTimeout(str('timeout')),
      privacy: parsePrivacyFlag(str('privacy')),
      tableFile: {
        ...parseTableFileFlags({ header: str('header'), encoding: str('encoding') }),
        server: parseServerFlags({ 'password-env': str('password-env'), schema: str('schema') }),
      },
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
