// Whether a server's text may be shown when the request carried a key (issue item 9, decision
// 070). `redact.ts` cuts a key as it is written; a server can also echo it disguised — reversed,
// upper-cased, base64-encoded, spaced out, split by zero-width characters — and no cut finds those.
// So text from a keyed server is not cut but judged whole: shown only when it holds no disguise of
// the key and nothing shaped like a token; otherwise the caller shows a fixed message instead.

import { FRAGMENT_LENGTH, redactSecrets, secretsOf } from './redact';

/** A run of token characters this long (and random-looking) may be a key we cannot recognise. */
export const TOKEN_RUN_LENGTH = 20;

/** An allowed text shorter than this is not taken out before looking for tokens. */
const ALLOWED_MIN_LENGTH = 8;

// Characters that render as nothing (or as a soft hyphen) and can split a key invisibly.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;
const TOKEN_RUN = /[A-Za-z0-9+/=_-]+/g;

/** Letters and digits only, lower-cased: what is left of a key whatever separators or case hide it. */
const skeleton = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const reversed = (s: string) => [...s].reverse().join('');

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += BASE64[n >> 18] + BASE64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? BASE64[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? BASE64[n & 63] : '=';
  }
  return out;
}

/**
 * The key's base64 wherever it starts in an encoded text (`Basic user:key`, `Bearer key`): the
 * encoding of the key after 0, 1 or 2 other bytes, without the characters it shares with them.
 */
function base64Forms(key: string): string[] {
  const bytes = new TextEncoder().encode(key);
  return [0, 1, 2].map((shift) => {
    const padded = new Uint8Array(shift + bytes.length);
    padded.set(bytes, shift);
    return base64(padded).slice(shift ? 4 : 0, -4);
  });
}

const hex = (key: string) => [...new TextEncoder().encode(key)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** Every run of FRAGMENT_LENGTH characters of each disguise of each key, as skeletons. */
function disguisedGrams(secrets: readonly string[]): Set<string> {
  const grams = new Set<string>();
  for (const key of secrets)
    for (const form of [key, reversed(key)])
      for (const variant of [form, ...base64Forms(form), hex(form)]) {
        const s = skeleton(variant);
        for (let i = 0; i + FRAGMENT_LENGTH <= s.length; i++) grams.add(s.slice(i, i + FRAGMENT_LENGTH));
      }
  return grams;
}

/** Does `text` hold a piece of one of `keys`, as it is or in any of the disguises above? */
export function echoesKey(text: string, keys: readonly (string | null | undefined)[]): boolean {
  const secrets = secretsOf(keys);
  if (!secrets.length) return false;
  const grams = disguisedGrams(secrets);
  const s = skeleton(text.replace(INVISIBLE, ''));
  for (let i = 0; i + FRAGMENT_LENGTH <= s.length; i++) if (grams.has(s.slice(i, i + FRAGMENT_LENGTH))) return true;
  return false;
}

const looksRandom = (run: string) => (run.match(/\d/g)?.length ?? 0) >= 2 || (/[a-z]/.test(run) && /[A-Z]/.test(run));

/** `text` without invisible characters, spaced-out letters (`s k - 1 2 …`) joined into one word. */
function joinSpacedLetters(text: string): string {
  const out: string[] = [];
  let single = '';
  for (const word of text.replace(INVISIBLE, '').split(/\s+/)) {
    if ([...word].length === 1) single += word;
    else {
      if (single) out.push(single);
      single = '';
      if (word) out.push(word);
    }
  }
  if (single) out.push(single);
  return out.join(' ');
}

/**
 * Does `text` hold a long random-looking run of token characters (a key we were not told about, a
 * base64 blob), once invisible characters are dropped and spaced-out letters joined? `allowed`
 * texts (the model's name, which the person chose) do not count. Runs without two digits or
 * both cases (`context_length_exceeded`, a URL's path) are words, not tokens.
 */
export function hasTokenRun(text: string, allowed: readonly string[] = []): boolean {
  let t = text;
  // A short name ("m") taken out would cut tokens into harmless-looking pieces.
  for (const a of allowed) if (a.length >= ALLOWED_MIN_LENGTH) t = t.split(a).join(' ');
  for (const run of joinSpacedLetters(t).match(TOKEN_RUN) ?? [])
    if (run.length >= TOKEN_RUN_LENGTH && looksRandom(run)) return true;
  return false;
}

/**
 * Server text fit to show beside a request that carried one of `keys`: unchanged by the
 * redaction, no disguise of a key, no token-like run. Keys under 16 characters (`ollama`,
 * `lm-studio`) are no secrets (redact.ts), so a local server's text always passes.
 */
export function safeToShow(
  text: string,
  keys: readonly (string | null | undefined)[],
  allowed: readonly string[] = [],
): boolean {
  if (!secretsOf(keys).length) return true;
  return redactSecrets(text, keys) === text && !echoesKey(text, keys) && !hasTokenRun(text, allowed);
}
