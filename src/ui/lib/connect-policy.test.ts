// @vitest-environment jsdom
// The page's narrowing policy names the configured server only (decision 040): a preset the
// person did not choose is one more place injected code could send data to with its own key.
import { describe, expect, it } from 'vitest';
import { WEBLLM_ORIGINS } from '../../core/security/csp';
import { canConnect, narrowConnections, originsFor, policedFetch, reloadNeededFor } from './connect-policy';
import { DEFAULT_MODEL_SETTINGS } from './model-settings';

const local = { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1' };

describe('the connect policy of a page', () => {
  it('names the configured server and what its provider downloads, no preset', () => {
    expect(originsFor(DEFAULT_MODEL_SETTINGS)).toEqual([]); // the scripted demo
    expect(originsFor(local)).toEqual(['http://127.0.0.1:9']);
    expect(originsFor({ provider: 'openai', baseUrl: 'https://api.openai.com/v1' })).toEqual([
      'https://api.openai.com',
    ]);
    expect(originsFor({ provider: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1' })).toEqual([
      'https://api.anthropic.com',
    ]);
    expect(originsFor({ provider: 'webllm', baseUrl: '' })).toEqual(WEBLLM_ORIGINS);
  });

  it('asks for a reload before any other server, a preset included', async () => {
    narrowConnections(originsFor(local));
    const metas = [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')];
    expect(metas.map((m) => m.getAttribute('content'))).toEqual(["connect-src 'self' http://127.0.0.1:9"]);
    expect(canConnect('http://127.0.0.1:9/v1/chat/completions')).toBe(true);
    expect(canConnect('/demo.sqlite')).toBe(true);
    expect(reloadNeededFor({ provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1/' })).toBeNull();
    expect(reloadNeededFor({ provider: 'scripted', baseUrl: '' })).toBeNull();

    expect(canConnect('https://api.openai.com/v1/chat/completions')).toBe(false);
    expect(reloadNeededFor({ provider: 'openai', baseUrl: 'https://api.openai.com/v1' })).toBe(
      'https://api.openai.com',
    );
    expect(reloadNeededFor({ provider: 'openai', baseUrl: 'http://localhost:11434/v1' })).toBe(
      'http://localhost:11434',
    );
    expect(reloadNeededFor({ provider: 'anthropic', baseUrl: '' })).toBe('https://api.anthropic.com');
    expect(reloadNeededFor({ provider: 'webllm', baseUrl: '' })).toBe('https://huggingface.co');
    await expect(policedFetch('https://openrouter.ai/api/v1/chat/completions')).rejects.toThrow(
      'Reload the page to connect to https://openrouter.ai (your settings are kept).',
    );
  });
});
