// A provider for tests that prove a provider added to the registry (core/llm/providers.ts) is
// taken everywhere: a scripted model that always answers `turn`, recording how it was made.

import type { ProviderConfig, ProviderSpec } from '../core/llm/providers';
import { createScriptedModel, type ScriptedTurn } from '../core/llm/scripted';

export function fakeProvider(
  overrides: Partial<ProviderSpec> = {},
  turn: ScriptedTurn = { text: 'hello' },
): { spec: ProviderSpec; made: ProviderConfig[] } {
  const made: ProviderConfig[] = [];
  const spec: ProviderSpec = {
    id: 'echo',
    label: 'Echo (test)',
    inPage: true,
    inCli: true,
    needsModel: true,
    scripted: false,
    keyVariable: null,
    defaultBaseUrl: 'https://echo.invalid/v1',
    onDevice: false,
    keyRequired: true,
    takesKey: true,
    serverChosen: false,
    connectOrigins: [],
    create: (config) => {
      made.push(config);
      return createScriptedModel(
        Array.from({ length: 6 }, () => turn),
        { name: config.model },
      );
    },
    ...overrides,
  };
  return { spec, made };
}
