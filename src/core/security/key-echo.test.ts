import { describe, expect, it } from 'vitest';
import { FAKE_KEY, HALVING_DISGUISES, KEY_DISGUISES } from '../../test-support/key-disguises';
import { echoesKey, hasTokenRun, safeToShow } from './key-echo';

const KEY = FAKE_KEY;
const reverse = (s: string) => [...s].reverse().join('');

describe('echoesKey: a key in disguise (issue item 9)', () => {
  it.each(Object.entries(KEY_DISGUISES))('finds the key %s', (name, disguise) => {
    expect(echoesKey(`Invalid key: ${disguise(KEY)}.`, [KEY])).toBe(true);
    // A piece too: 12 characters of the key's body disguised, too short for the token rule
    // (24 where the disguise shows every other character).
    expect(echoesKey(`…${disguise(KEY.slice(8, HALVING_DISGUISES.has(name) ? 32 : 20))}…`, [KEY])).toBe(true);
  });

  it('finds nothing in ordinary error sentences, and nothing without a key of 16+ characters', () => {
    for (const text of [
      "Invalid value for 'temperature': must be at most 2.",
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      'The model `gpt-4o-mini` does not exist or you do not have access to it.',
    ])
      expect(echoesKey(text, [KEY])).toBe(false);
    expect(echoesKey('ollama ollama', ['ollama'])).toBe(false);
  });
});

describe('hasTokenRun', () => {
  it('sees a long random-looking run, also spaced out or split by invisible characters', () => {
    const token = 'Zk3Rq9Lm2Tx8Vb4Np7Hs1Wd';
    expect(hasTokenRun(`token ${token} here`)).toBe(true);
    expect(hasTokenRun(`token ${[...token].join(' ')} here`)).toBe(true);
    expect(hasTokenRun(`token ${[...token].join('\u2060')} here`)).toBe(true);
  });

  it('keeps words, URL paths and the model name the person chose', () => {
    expect(hasTokenRun('context_length_exceeded; see https://platform.openai.com/docs/guides/error-codes')).toBe(false);
    expect(hasTokenRun('The model `gpt-4o-mini-2024-07-18` does not exist')).toBe(true);
    expect(hasTokenRun('The model `gpt-4o-mini-2024-07-18` does not exist', ['gpt-4o-mini-2024-07-18'])).toBe(false);
    expect(hasTokenRun('I a m not a token')).toBe(false);
    // A short model name is not cut out of a token.
    expect(hasTokenRun('token Zk3Rq9Lm2Tx8Vb4Np7Hs1Wd', ['m'])).toBe(true);
  });
});

describe('safeToShow', () => {
  it('passes anything when no request key is a secret (local servers)', () => {
    expect(safeToShow(`digest sha256:${'ab12'.repeat(16)}`, ['ollama'])).toBe(true);
    expect(safeToShow(`digest sha256:${'ab12'.repeat(16)}`, [])).toBe(true);
  });

  it('refuses text the redaction would change, a disguised key, or a token-like run', () => {
    expect(safeToShow('Rate limit reached for requests', [KEY])).toBe(true);
    expect(safeToShow('bad key sk-other-0987654321', [KEY])).toBe(false);
    expect(safeToShow(`bad key ${reverse(KEY)}`, [KEY])).toBe(false);
    expect(safeToShow('request id req_9f8e7d6c5b4a39281706abcdef', [KEY])).toBe(false);
  });
});
