// A fake key and the disguises a red-team found a server could echo it in, past the redaction
// (issue item 9): for the tests of the error messages, the stored run, its exports and the CLI.

export const FAKE_KEY = 'sk-proj-Q7vX2mPz9LkT4wRb8NcY3hJd6FsA1gUe';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const reverse = (s: string) => [...s].reverse().join('');
const bytes = (s: string) => new TextEncoder().encode(s);
const rot13 = (s: string) =>
  s.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
const chunks = (s: string, n: number) =>
  Array.from({ length: Math.ceil(s.length / n) }, (_, i) => s.slice(i * n, i * n + n));
const everyOther = (s: string, offset: number) => [...s].filter((_, i) => i % 2 === offset).join('');

export const KEY_DISGUISES: Record<string, (key: string) => string> = {
  'as it is': (k) => k,
  reversed: reverse,
  'upper-cased': (k) => k.toUpperCase(),
  'lower-cased': (k) => k.toLowerCase(),
  base64: b64,
  'base64 of "Bearer key"': (k) => b64(`Bearer ${k}`),
  'base64url of "user:key"': (k) => Buffer.from(`user:${k}`).toString('base64url'),
  'spaced out': (k) => [...k].join(' '),
  'split by zero-width spaces': (k) => [...k].join('\u200B'),
  'split by zero-width joiners, reversed': (k) => [...reverse(k)].join('\u200D'),
  // Round four (issue 35, item 15): encodings and cuts that passed the gate before.
  'as decimal bytes': (k) => [...bytes(k)].join(' '),
  'as octal escapes': (k) => [...bytes(k)].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join(''),
  'as hex escapes': (k) => [...bytes(k)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''),
  'in ROT13, in short chunks between words': (k) => chunks(rot13(k), 6).join(' and then '),
  'in short chunks between words': (k) => chunks(k, 6).join(' or '),
  'as its every other character, in short groups': (k) => chunks(everyOther(k, 0), 8).join(' '),
  'as its every other character from the second, in short groups': (k) => chunks(everyOther(k, 1), 8).join(' '),
  'between other characters, in short groups': (k) =>
    chunks([...k].map((c, i) => c + 'qzj'[i % 3]).join(''), 9).join(' '),
};

/** The disguises the red team of round four found passing (issue 35, item 15). */
export const ROUND_FOUR_DISGUISES = Object.keys(KEY_DISGUISES).slice(
  Object.keys(KEY_DISGUISES).indexOf('as decimal bytes'),
);

/** Keys shown as their every other character carry half of it: a test of pieces takes twice as much. */
export const HALVING_DISGUISES = new Set([
  'as its every other character, in short groups',
  'as its every other character from the second, in short groups',
]);

/** Every disguise of `key`, as [name, text] pairs for `it.each`. */
export const disguisesOf = (key = FAKE_KEY): Array<[string, string]> =>
  Object.entries(KEY_DISGUISES).map(([name, disguise]) => [name, disguise(key)]);

/**
 * The pieces of 8 characters of any disguise of `key` that `text` holds, white space and
 * invisible characters ignored on both sides: what a test expects to be empty.
 */
export function disguisedPieces(text: string, key = FAKE_KEY): string[] {
  const bare = (s: string) => s.replace(/[\s\u200B-\u200F\u2060\uFEFF]/g, '');
  const seen = bare(text);
  const out: string[] = [];
  for (const [, disguised] of disguisesOf(key)) {
    const d = bare(disguised);
    for (let i = 0; i + 8 <= d.length; i++) if (seen.includes(d.slice(i, i + 8))) out.push(d.slice(i, i + 8));
  }
  return [...new Set(out)];
}
