// The page's model factory makes a provider added to the registry as its entry says: the model,
// the key and its fixed server (issue 27: one provider list).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerProvider } from '../../core/llm/providers';
import { fakeProvider } from '../../test-support/fake-provider';
import { applyModelPatch, DEFAULT_MODEL_SETTINGS } from '../lib/model-settings';
import { createChatModel } from './model-factory';

const { spec, made } = fakeProvider({ inCli: false });
let unregister: () => void;
beforeAll(() => {
  unregister = registerProvider(spec);
});
afterAll(() => unregister());

describe('createChatModel', () => {
  it('makes a registered provider with the model, its key and no base URL of the settings', async () => {
    const settings = applyModelPatch(DEFAULT_MODEL_SETTINGS, {
      provider: 'echo',
      model: 'e1',
      baseUrl: 'https://somewhere-else.example/v1',
      toolMode: 'text',
    });
    const withKey = applyModelPatch(settings, { apiKey: 'echo-key-123' });
    const model = await createChatModel(withKey);
    expect(model.model).toBe('e1');
    expect(made.map((c) => [c.model, c.apiKey, c.baseUrl, c.supportsTools])).toEqual([
      ['e1', 'echo-key-123', undefined, false],
    ]);
  });
});
