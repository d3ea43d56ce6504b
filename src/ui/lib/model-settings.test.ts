import { beforeEach, describe, expect, it } from 'vitest';
import { fromDeepLink, loadModelSettings, saveModelSettings } from './model-settings';

class MemoryStorage {
  private data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
  dump() {
    return [...this.data.values()].join('\n');
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = storage;
});

describe('model settings', () => {
  it('reads provider, base URL and model from a deep link, and never a key', () => {
    expect(
      fromDeepLink(
        '#provider=openai&baseUrl=http%3A%2F%2Flocalhost%3A11434%2Fv1&model=qwen2.5%3A7b&apiKey=sk-x&key=sk-y',
      ),
    ).toEqual({
      provider: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      preset: 'custom',
      model: 'qwen2.5:7b',
    });
    expect(fromDeepLink('#provider=evil&baseUrl=javascript:alert(1)')).toEqual({});
  });

  it('keeps the key only when "remember" is ticked, and never with the other settings', () => {
    saveModelSettings({
      ...loadModelSettings(''),
      provider: 'anthropic',
      model: 'claude',
      apiKey: 'sk-secret',
      rememberKey: false,
    });
    expect(storage.dump()).not.toContain('sk-secret');
    expect(loadModelSettings('')).toMatchObject({ provider: 'anthropic', model: 'claude', apiKey: '' });
    saveModelSettings({ ...loadModelSettings(''), apiKey: 'sk-secret', rememberKey: true });
    expect(loadModelSettings('')).toMatchObject({ apiKey: 'sk-secret', rememberKey: true });
    expect(storage.getItem('dowser.model')).not.toContain('sk-secret');
  });
});
