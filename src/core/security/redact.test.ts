import { describe, expect, it } from 'vitest';
import { llmErrorFromResponse, WITHHELD } from '../llm/errors';
import { createStreamRedactor, redactDeep, redactSecrets } from './redact';

const KEY = 'sk-proj-Q7vX2mPz9LkT4wRb8NcY3hJd6FsA1gUe';
const BODY = KEY.slice('sk-proj-'.length);

/** Every substring of the key with at least `n` characters that shows in `text`. */
function leaked(text: string, key = KEY, n = 6): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= key.length; i++) if (text.includes(key.slice(i, i + n))) out.push(key.slice(i, i + n));
  return out;
}

describe('redaction (issue 11, item 9; issue 8, short keys)', () => {
  it('short keys are not secrets: ordinary words and names stay as they are', () => {
    const text = '{"explanation":"avg(LifeExpectancy) by region","x":1} — try ollama pull or lm-studio';
    for (const key of ['x', 'ollama', 'lm-studio', 'e', 'secret1']) expect(redactSecrets(text, [key])).toBe(text);
  });

  it('cuts the key in every form a server or model echoes it', () => {
    const cases = [
      `Incorrect API key provided: ${KEY}.`,
      `invalid x-api-key: ${BODY}`, // without its prefix
      `key "${KEY.slice(0, 20)}` + '…', // cut short by a message limit
      `…${KEY.slice(-12)} is not valid`, // the last 12 characters
      `{"error":{"message":"bad key ${JSON.stringify(KEY).slice(1, -1)}"}}`,
      `Authorization: Bearer ${KEY}`,
      `key=${encodeURIComponent(KEY)}&x=1`,
      `The model said: my key is ${BODY.slice(3)}, right?`,
    ];
    for (const text of cases) {
      const out = redactSecrets(text, [KEY]);
      expect(out).toContain('[redacted]');
      expect(leaked(out)).toEqual([]);
    }
  });

  it('a long passphrase is cut whole, but its words in prose are left alone', () => {
    const phrase = 'correct-horse-battery-staple';
    expect(redactSecrets(`key ${phrase} refused`, [phrase])).toBe('key [redacted] refused');
    expect(redactSecrets('the battery-staple problem', [phrase])).toBe('the battery-staple problem');
  });

  it('cuts key-shaped text it was not told about', () => {
    expect(redactSecrets('other key sk-other0987654321 here')).toBe('other key [redacted] here');
  });

  it('redacts every string of an event, keeping numbers, bigints and blobs', () => {
    const blob = new Uint8Array([1, 2]);
    const event = { type: 'final', sql: `SELECT '${KEY}'`, rows: [[1, 2n, blob, `v ${BODY}`]], explanation: null };
    const out = redactDeep(event, [KEY]);
    expect(out).toEqual({
      type: 'final',
      sql: "SELECT '[redacted]'",
      rows: [[1, 2n, blob, 'v [redacted]']],
      explanation: null,
    });
    expect(event.sql).toContain(KEY); // the original is not changed
  });

  it('redactDeep survives arguments nested 100,000 deep', () => {
    const deep = JSON.parse('['.repeat(100_000) + `"${KEY}"` + ']'.repeat(100_000)) as unknown;
    expect(JSON.stringify(redactDeep({ args: deep }, [KEY]).args).slice(0, 1000)).not.toContain(KEY.slice(8, 20));
  });

  it('a key streamed in pieces is cut wherever the pieces split it', () => {
    const text = `Sure. The key you gave is ${KEY} and it works. Done.`;
    for (let a = 1; a < text.length; a += 3) {
      for (const b of [a + 1, a + 5, a + 17]) {
        const r = createStreamRedactor([KEY]);
        const out = [text.slice(0, a), text.slice(a, b), text.slice(b)].map((p) => r.push(p)).join('') + r.flush();
        expect(out).toBe('Sure. The key you gave is [redacted] and it works. Done.');
      }
    }
  });

  it('provider errors carry no key, nor its prefix-less body', () => {
    const err = llmErrorFromResponse(400, JSON.stringify({ error: { message: `Invalid key ${BODY}` } }), {
      provider: 'OpenAI',
      secrets: [KEY],
    });
    // After a keyed request a message the redaction had to cut is not quoted at all (decision 070).
    expect(err.message).toContain(WITHHELD);
    expect(leaked(err.message)).toEqual([]);
  });
});
