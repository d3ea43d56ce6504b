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

/** Letters moved `n` places along the alphabet (ROT13 is 13), digits and the rest kept. */
function rotated(s: string, n: number): string {
  return s.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + n) % 26) + base);
  });
}

/** Every `step`-th character from `offset`: a key's alternate characters, or a key hidden between others. */
const everyNth = (s: string, step: number, offset: number) => [...s].filter((_, i) => i % step === offset).join('');

const STEPS = [2, 3];

/**
 * Each disguise of a key a server could echo, as a skeleton: the key and its reverse, each as it
 * is, base64 at the three byte alignments, hex, letters rotated by 1-25 (ROT13 among them), and
 * every 2nd or 3rd character (issue 35, item 15). Numbers written for its bytes (decimal, octal,
 * escapes) are decoded from the text instead (`numberViews`).
 */
function keyForms(key: string): string[] {
  const out: string[] = [];
  for (const form of [key, reversed(key)]) {
    out.push(form, ...base64Forms(form), hex(form));
    for (let n = 1; n < 26; n++) out.push(rotated(form, n));
    for (const step of STEPS) for (let o = 0; o < step; o++) out.push(everyNth(form, step, o));
  }
  return out.map(skeleton);
}

/**
 * A piece this long is matched; pieces of one disguise that cover FRAGMENT_LENGTH characters of
 * it are an echo, so a key cut into short chunks between other words is found too. Characters of
 * the disguise, not of the text, are counted: a word the text repeats counts once.
 */
const CHUNK_LENGTH = 5;

/** Each CHUNK_LENGTH-gram of any disguise, with where it starts in which disguise (by index). */
function chunkIndex(secrets: readonly string[]): { index: Map<string, Array<[number, number]>>; forms: number } {
  const index = new Map<string, Array<[number, number]>>();
  let form = 0;
  for (const key of secrets)
    for (const f of keyForms(key)) {
      for (let i = 0; i + CHUNK_LENGTH <= f.length; i++) {
        const gram = f.slice(i, i + CHUNK_LENGTH);
        const at = index.get(gram);
        if (at) at.push([form, i]);
        else index.set(gram, [[form, i]]);
      }
      form++;
    }
  return { index, forms: form };
}

/** Printable ASCII codes as text; any other code ends a piece. */
function codesText(codes: number[]): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const c of codes)
    if (c >= 32 && c < 127) piece += String.fromCharCode(c);
    else if (piece) {
      pieces.push(piece);
      piece = '';
    }
  if (piece) pieces.push(piece);
  return pieces;
}

const codes = (text: string, re: RegExp, radix: number) => [...text.matchAll(re)].map((m) => parseInt(m[1], radix));

/**
 * The text that numbers in `text` spell when they are read as character codes: every decimal run
 * (`115 107 45 …`), octal escapes and groups (`\163\153`, `163 153 055`), hex escapes (`\x73`,
 * `%73`, `&#x73;`, `0x73`, `\u0073`), HTML decimal entities included by the decimal reading.
 */
function numberViews(text: string): string[] {
  return [
    ...codesText(codes(text, /(\d+)/g, 10)),
    ...codesText(codes(text, /(?:\\|\b0)([0-7]{1,3})/g, 8)),
    ...codesText(codes(text, /\b([0-7]{3})\b/g, 8)),
    ...codesText(codes(text, /(?:\\x|%|&#x|\b0x|\\u00)([0-9a-f]{2})/gi, 16)),
  ].map(skeleton);
}

/** The texts a key could hide in: the skeleton, its every 2nd and 3rd character, what its numbers spell. */
function textViews(text: string): string[] {
  const plain = skeleton(text.replace(INVISIBLE, ''));
  const views = [plain];
  for (const step of STEPS) for (let o = 0; o < step; o++) views.push(everyNth(plain, step, o));
  return [...views, ...numberViews(text)];
}

/** Does `text` hold a piece of one of `keys`, as it is or in any of the disguises above? */
export function echoesKey(text: string, keys: readonly (string | null | undefined)[]): boolean {
  return createEchoTest(keys)(text);
}

/** `echoesKey` for these keys, prepared once (for many texts: the measurement). */
export function createEchoTest(keys: readonly (string | null | undefined)[]): (text: string) => boolean {
  const secrets = secretsOf(keys);
  if (!secrets.length) return () => false;
  const { index } = chunkIndex(secrets);
  return (text) => {
    for (const view of textViews(text)) {
      // Per disguise: which of its characters the view's chunks cover.
      const covered = new Map<number, Set<number>>();
      for (let i = 0; i + CHUNK_LENGTH <= view.length; i++) {
        for (const [form, start] of index.get(view.slice(i, i + CHUNK_LENGTH)) ?? []) {
          let chars = covered.get(form);
          if (!chars) covered.set(form, (chars = new Set()));
          for (let c = start; c < start + CHUNK_LENGTH; c++) chars.add(c);
          if (chars.size >= FRAGMENT_LENGTH) return true;
        }
      }
    }
    return false;
  };
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
