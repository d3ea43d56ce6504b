import { beforeEach, describe, expect, it } from 'vitest';
import {
  applyModelPatch,
  fromDeepLink,
  KEYS_KEY,
  loadModelSettings,
  MODEL_KEY,
  saveModelSettings,
  settingsFromLink,
  type ModelSettings,
} from './model-settings';

class MemoryStorage {
  data = new Map<string, string>();
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

let local: MemoryStorage;
let session: MemoryStorage;
beforeEach(() => {
  local = new MemoryStorage();
  session = new MemoryStorage();
  Object.assign(globalThis, { localStorage: local, sessionStorage: session });
});

const OPENAI_KEY = 'sk-proj-Abc123Def456Ghi789Jkl012';
const openai = (patch: Partial<ModelSettings> = {}) =>
  applyModelPatch(loadModelSettings(), {
    provider: 'openai',
    preset: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    ...patch,
  });

describe('model settings: a key is bound to its provider and origin (issue 11, item 1)', () => {
  it('reads provider, base URL and model from a deep link, and never a key', () => {
    expect(
      fromDeepLink(
        '#provider=openai&baseUrl=http%3A%2F%2Flocalhost%3A11434%2Fv1&model=qwen2.5%3A7b&apiKey=sk-x&key=sk-y',
      ),
    ).toEqual({ provider: 'openai', baseUrl: 'http://localhost:11434/v1', preset: 'custom', model: 'qwen2.5:7b' });
    expect(fromDeepLink('#provider=evil&baseUrl=javascript:alert(1)')).toEqual({});
  });

  it('a link is only a proposal, and accepting it never carries the key to the new origin', () => {
    const saved = openai({ apiKey: OPENAI_KEY, keyStorage: 'local' });
    saveModelSettings(saved);
    const reloaded = loadModelSettings();
    expect(reloaded.apiKey).toBe(OPENAI_KEY);
    const proposal = settingsFromLink('#provider=openai&baseUrl=https%3A%2F%2Fevil.example%2Fv1', reloaded);
    expect(proposal?.changes).toEqual([
      { field: 'server', from: 'https://api.openai.com/v1', to: 'https://evil.example/v1' },
    ]);
    const accepted = applyModelPatch(reloaded, proposal!.patch);
    expect(accepted).toMatchObject({ baseUrl: 'https://evil.example/v1', apiKey: '' });
    // Same origin, other path: still a change the person is asked about.
    expect(settingsFromLink('#baseUrl=https%3A%2F%2Fapi.openai.com%2Fother', reloaded)?.changes[0].field).toBe(
      'server',
    );
    // A provider switch to Anthropic does not take the OpenAI key along either.
    const anthropic = applyModelPatch(reloaded, settingsFromLink('#provider=anthropic', reloaded)!.patch);
    expect(anthropic.apiKey).toBe('');
    expect(settingsFromLink('#model=gpt-4o-mini', reloaded)).toBeNull();
  });

  it('switching server by preset or by typing swaps in that server’s own key, or none', () => {
    let s = openai({ apiKey: OPENAI_KEY });
    s = applyModelPatch(s, { preset: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1' });
    expect(s.apiKey).toBe('');
    s = applyModelPatch(s, { apiKey: 'sk-or-v1-0123456789abcdef0123' });
    s = applyModelPatch(s, { baseUrl: 'https://api.openai.com.evil.example/v1', preset: 'custom' });
    expect(s.apiKey).toBe('');
    s = applyModelPatch(s, { preset: 'openai', baseUrl: 'https://api.openai.com/v1' });
    expect(s.apiKey).toBe(OPENAI_KEY);
    expect(s.keys.map((k) => k.origin)).toEqual(['https://api.openai.com', 'https://openrouter.ai']);
  });

  it('keeps keys in memory, for the tab session, or on the device, as chosen', () => {
    saveModelSettings(openai({ apiKey: OPENAI_KEY, keyStorage: 'memory' }));
    expect(local.dump() + session.dump()).not.toContain(OPENAI_KEY);
    expect(loadModelSettings()).toMatchObject({ provider: 'openai', apiKey: '' });

    saveModelSettings(openai({ apiKey: OPENAI_KEY, keyStorage: 'session' }));
    expect(local.dump()).not.toContain(OPENAI_KEY);
    expect(session.getItem(KEYS_KEY)).toContain(OPENAI_KEY);
    expect(loadModelSettings()).toMatchObject({ keyStorage: 'session', apiKey: OPENAI_KEY });

    saveModelSettings(openai({ apiKey: OPENAI_KEY, keyStorage: 'local' }));
    expect(session.getItem(KEYS_KEY)).toBeNull();
    expect(local.getItem(KEYS_KEY)).toContain(OPENAI_KEY);
    expect(local.getItem(MODEL_KEY)).not.toContain(OPENAI_KEY);
    expect(loadModelSettings().apiKey).toBe(OPENAI_KEY);
  });

  it('migrates the unversioned settings and binds the old remembered key to their server', () => {
    local.setItem(
      MODEL_KEY,
      JSON.stringify({ provider: 'openai', preset: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }),
    );
    local.setItem('dowser.model.key', OPENAI_KEY);
    const s = loadModelSettings();
    expect(s).toMatchObject({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      keyStorage: 'local',
      apiKey: OPENAI_KEY,
    });
    expect(s.keys).toEqual([{ provider: 'openai', origin: 'http://127.0.0.1:9', key: OPENAI_KEY }]);
    expect(local.getItem('dowser.model.key')).toBeNull();
    expect(JSON.parse(local.getItem(MODEL_KEY)!).version).toBe(2);
    expect(loadModelSettings().apiKey).toBe(OPENAI_KEY);
  });

  it('parses what it reads: bad fields fall back alone, nothing unknown is spread in', () => {
    local.setItem(
      MODEL_KEY,
      JSON.stringify({
        version: 2,
        settings: {
          provider: 'evil',
          baseUrl: 'javascript:alert(1)',
          model: 'ok-model',
          toolMode: 'text',
          apiKey: 'x',
          extra: 1,
        },
      }),
    );
    local.setItem(KEYS_KEY, JSON.stringify([{ provider: 'openai', origin: 'x', key: 42 }]));
    const s = loadModelSettings();
    expect(s).toMatchObject({
      provider: 'scripted',
      baseUrl: 'https://api.openai.com/v1',
      model: 'ok-model',
      toolMode: 'text',
      apiKey: '',
    });
    expect(s).not.toHaveProperty('extra');
    local.setItem(MODEL_KEY, '{not json');
    expect(loadModelSettings().provider).toBe('scripted');
  });
});
