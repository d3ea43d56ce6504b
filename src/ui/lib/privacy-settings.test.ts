// The page's default privacy level follows where the model runs (issue 35, item 17): a provider
// that runs in the page, or a server on a loopback address, gets full; any other server needs the
// person's choice, whether or not it takes a key.
import { afterEach, describe, expect, it } from 'vitest';
import { registerProvider } from '../../core/llm/providers';
import { fakeProvider } from '../../test-support/fake-provider';
import { privacyLevelOf, privacyTarget, type PrivacySettings } from './privacy-settings';

const none: PrivacySettings = { levels: {}, reviewPrompts: false };
let unregister: (() => void) | undefined;
afterEach(() => {
  unregister?.();
  unregister = undefined;
});

describe('the privacy level a model server gets by default', () => {
  it('is asked for a keyless server on another host, full for the same server on loopback', () => {
    const { spec } = fakeProvider({ id: 'keyless', takesKey: false, keyRequired: false, serverChosen: true });
    unregister = registerProvider(spec);
    const remote = { provider: 'keyless', baseUrl: 'http://gpu-box.example:8000/v1' };
    expect(privacyTarget(remote)).toBe('keyless http://gpu-box.example:8000');
    expect(privacyLevelOf(remote, none)).toBeNull();
    expect(privacyLevelOf(remote, { ...none, levels: { 'keyless http://gpu-box.example:8000': 'schema' } })).toBe(
      'schema',
    );
    for (const baseUrl of ['http://127.0.0.1:8000/v1', 'http://localhost:11434/v1', 'http://[::1]:1234/v1'])
      expect(privacyLevelOf({ provider: 'keyless', baseUrl }, none)).toBe('full');
  });

  it('is full for a provider that runs on this device, whatever server it names', () => {
    const { spec } = fakeProvider({ id: 'in-page', onDevice: true, takesKey: true, defaultBaseUrl: null });
    unregister = registerProvider(spec);
    expect(privacyLevelOf({ provider: 'in-page', baseUrl: 'https://example.com/v1' }, none)).toBe('full');
    expect(privacyLevelOf({ provider: 'webllm', baseUrl: '' }, none)).toBe('full');
    expect(privacyLevelOf({ provider: 'scripted', baseUrl: '' }, none)).toBe('full');
  });

  it('keeps the targets levels were saved under for the built-in servers', () => {
    expect(privacyTarget({ provider: 'openai', baseUrl: 'https://api.openai.com/v1' })).toBe(
      'openai https://api.openai.com',
    );
    expect(privacyTarget({ provider: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1' })).toBe(
      'anthropic https://api.anthropic.com',
    );
    expect(privacyTarget({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' })).toBeNull();
  });
});
