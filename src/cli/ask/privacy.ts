// `--privacy` for the commands that talk to a model: what of the database's cell values may reach
// it (core/privacy/disclose.ts). Local servers and the scripted model get everything by default;
// a cloud provider (OpenAI, Anthropic, any non-local URL) gets values only when they are words of
// the question, unless --privacy says otherwise.

import { defaultPrivacy, PRIVACY_LABELS, type PrivacyLevel } from '../../core/privacy/disclose';
import { providerById } from '../../core/llm/providers';

export const PRIVACY_HELP = `  --privacy <level>    what of the file's cell values may reach the model: full; matches (a
                       value only when it is made of words of the question, row previews as
                       counts and column names); schema (no cell value: in rows, statistics,
                       errors or examples; counts stay, and a counting query can still tell
                       whether a value is there). Default: full for scripted and local URLs
                       (localhost, 127.0.0.1, [::1]); matches for a cloud provider`;

interface ProviderOptions {
  provider: string;
  baseUrl?: string;
  privacy?: PrivacyLevel;
}

export function privacyFor(o: ProviderOptions): PrivacyLevel {
  if (o.privacy) return o.privacy;
  // A model on this machine (a script, the page's own, a loopback server) may see everything.
  const spec = providerById(o.provider);
  return defaultPrivacy(spec, o.baseUrl ?? spec?.defaultBaseUrl ?? undefined);
}

/** One line on stderr, so a person sees what leaves the machine before it does. */
export function privacyNote(o: ProviderOptions, level: PrivacyLevel): string {
  const why = o.privacy ? '--privacy' : 'the default for this provider; change it with --privacy';
  return `Privacy: ${PRIVACY_LABELS[level]} (${why}).\n`;
}
