// A fake key and the disguises a red-team found a server could echo it in, past the redaction
// (issue item 9): for the tests of the error messages, the stored run, its exports and the CLI.

export const FAKE_KEY = 'sk-proj-Q7vX2mPz9LkT4wRb8NcY3hJd6FsA1gUe';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const reverse = (s: string) => [...s].reverse().join('');

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
};

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
