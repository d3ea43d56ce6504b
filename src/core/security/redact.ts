// The one redaction routine, for the page and the CLI: every text that is stored or exported
// (provider errors, model replies, run events, history, transcripts, exports, CLI output) goes
// through it with the keys the person configured.
//
// It must cut a key in whatever form a server or a model echoes it — whole, without its `sk-`
// prefix, cut short by a message limit, split over two streamed pieces — and must not touch
// ordinary text. So:
// - only keys of at least MIN_SECRET_LENGTH characters are secrets: `x`, `ollama` or `lm-studio`
//   (what local servers take) are words, and replacing them rewrote "explanation" and column
//   names;
// - besides the whole key, any run of at least FRAGMENT_LENGTH consecutive characters of it is
//   cut, when that run looks random (holds a digit, or both cases), or when the key is a
//   generated one and the run has 12 characters or more — a random key's pieces never occur in
//   prose, while a long passphrase's words do (docs/decisions/042-redaction-rule.md);
// - text shaped like a key we were not told about (`sk-…`, `Bearer …`) is cut too.

export const MIN_SECRET_LENGTH = 16;
export const FRAGMENT_LENGTH = 10;
export const REDACTED = '[redacted]';
/** Nesting below this in `redactDeep` is replaced whole. */
const MAX_DEPTH = 200;

const KEY_SHAPES = [/\bsk-[A-Za-z0-9_*-]{6,}/g, /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi];

const looksRandom = (s: string) => /\d/.test(s) || (/[a-z]/.test(s) && /[A-Z]/.test(s));
/** A generated key (digits among many letters), as opposed to a passphrase of words. */
const generatedKey = (s: string) =>
  s.length >= 20 && (s.match(/\d/g)?.length ?? 0) >= 2 && (s.match(/[a-z]/gi)?.length ?? 0) >= 4;
/** In a generated key, a run this long is the key's even when it has no digit (a lower-case tail). */
const GENERATED_FRAGMENT = 12;

/** The keys worth redacting: long enough to be secrets, longest first, no duplicates. */
export function secretsOf(keys: readonly (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const k of keys) {
    const t = k?.trim();
    if (t && t.length >= MIN_SECRET_LENGTH) out.add(t);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

interface Span {
  start: number;
  end: number;
}

interface Compiled {
  secret: string;
  generated: boolean;
  /** Every run of FRAGMENT_LENGTH characters of the secret. */
  grams: Set<string>;
}

function compile(secrets: readonly string[]): Compiled[] {
  return secrets.map((secret) => {
    const grams = new Set<string>();
    for (let i = 0; i + FRAGMENT_LENGTH <= secret.length; i++) grams.add(secret.slice(i, i + FRAGMENT_LENGTH));
    return { secret, grams, generated: generatedKey(secret) };
  });
}

/** Where in `text` a secret or a random-looking piece of one appears (sorted, merged). */
function secretSpans(text: string, compiled: readonly Compiled[]): Span[] {
  const spans: Span[] = [];
  for (const { secret, grams, generated } of compiled) {
    let open: Span | null = null;
    const close = (span: Span | null) => {
      const found = span && text.slice(span.start, span.end);
      if (
        span &&
        found &&
        (looksRandom(found) || found.includes(secret) || (generated && found.length >= GENERATED_FRAGMENT))
      )
        spans.push(span);
    };
    for (let i = 0; i + FRAGMENT_LENGTH <= text.length; i++) {
      if (!grams.has(text.slice(i, i + FRAGMENT_LENGTH))) continue;
      if (open && i <= open.end) open.end = i + FRAGMENT_LENGTH;
      else {
        close(open);
        open = { start: i, end: i + FRAGMENT_LENGTH };
      }
    }
    close(open);
  }
  spans.sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

function cut(text: string, spans: Span[]): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + REDACTED;
    at = s.end;
  }
  return out + text.slice(at);
}

function redactWith(text: string, compiled: readonly Compiled[]): string {
  let out = compiled.length && text.length >= FRAGMENT_LENGTH ? cut(text, secretSpans(text, compiled)) : text;
  for (const re of KEY_SHAPES) out = out.replace(re, REDACTED);
  return out;
}

/** A redactor for these keys, prepared once (for many texts, e.g. every cell of a result). */
export function createRedactor(keys: readonly (string | null | undefined)[]): (text: string) => string {
  const compiled = compile(secretsOf(keys));
  return (text) => redactWith(text, compiled);
}

/** `text` with every key in `keys` (and anything shaped like a key) replaced by `[redacted]`. */
export function redactSecrets(text: string, keys: readonly (string | null | undefined)[] = []): string {
  return createRedactor(keys)(text);
}

/**
 * A copy of `value` with every string redacted (object keys too), for events and runs. Other
 * values (numbers, bigints, blobs) are kept as they are.
 */
export function redactDeep<T>(value: T, keys: readonly (string | null | undefined)[]): T {
  const redact = createRedactor(keys);
  // Depth-limited: a model's tool arguments can nest deeper than the stack allows, and below
  // MAX_DEPTH nothing is kept that could hold a key.
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redact(v);
    if (v && typeof v === 'object' && depth >= MAX_DEPTH) return REDACTED;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [redact(k), walk(x, depth + 1)]));
    return v;
  };
  return walk(value, 0) as T;
}

/**
 * Redaction for text that arrives in pieces (streamed model output): a key split between two
 * pieces is still found. Each `push` returns what is safe to show now; text that could be the
 * start of a key is held back until the next piece shows whether it is. `flush` ends the stream.
 */
export function createStreamRedactor(keys: readonly (string | null | undefined)[]) {
  const secrets = secretsOf(keys);
  const compiled = compile(secrets);
  const hold = secrets.length ? secrets[0].length : 0;
  let pending = '';
  return {
    push(piece: string): string {
      if (!secrets.length) return redactWith(piece, compiled);
      pending += piece;
      let safeEnd = Math.max(0, pending.length - hold);
      for (const s of secretSpans(pending, compiled)) {
        // A key running to the end may go on in the next piece: keep it whole until then.
        if (s.end >= pending.length - FRAGMENT_LENGTH) safeEnd = Math.min(safeEnd, s.start);
        else if (s.start < safeEnd && s.end > safeEnd) safeEnd = s.end;
      }
      const out = pending.slice(0, safeEnd);
      pending = pending.slice(safeEnd);
      return redactWith(out, compiled);
    },
    flush(): string {
      const out = redactWith(pending, compiled);
      pending = '';
      return out;
    },
  };
}
