// Builds the ChatModel the agent talks to from the user's settings. Provider clients are core
// code over the page's fetch; WebLLM is loaded only when chosen.

import { providerById } from '../../core/llm/providers';
import { createScriptedModel } from '../../core/llm/scripted';
import type { ChatModel } from '../../core/llm/types';
import type { StreamLimits } from '../../core/llm/stream-guard';
import { DEMO_SCRIPT } from '../../core/agent/demo-script';
import type { ModelSettings } from '../lib/model-settings';
import { policedFetch } from '../lib/connect-policy';
import type { OutgoingRequest } from './types';

// Only to servers the page's connect policy allows (lib/connect-policy.ts).
const pageFetch: typeof fetch = policedFetch;

/** The page's fetch, showing each request to `onSend` first; a request it refuses is not made. */
function watchedFetch(onSend?: (request: OutgoingRequest) => Promise<boolean>): typeof fetch {
  if (!onSend) return pageFetch;
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const request = {
      url,
      method: init?.method ?? 'GET',
      headers: [...new Headers(init?.headers).entries()],
      body: typeof init?.body === 'string' ? init.body : '',
    };
    if (!(await onSend(request))) throw new DOMException('The prompt was not sent.', 'AbortError');
    return pageFetch(input, init);
  };
}

export async function createChatModel(
  s: ModelSettings,
  onLoadProgress?: (text: string) => void,
  onSend?: (request: OutgoingRequest) => Promise<boolean>,
  limits?: StreamLimits,
): Promise<ChatModel> {
  const fetch = watchedFetch(onSend);
  switch (s.provider) {
    case 'webllm': {
      const { createWebLlmModel, webgpuAvailable } = await import('../../adapters/webllm');
      const gpu = await webgpuAvailable();
      if (!gpu.ok) throw new Error(gpu.reason);
      return createWebLlmModel({
        model: s.model,
        onProgress: (p: { text?: string }) => onLoadProgress?.(p.text ?? ''),
      });
    }
    case 'scripted':
      return createScriptedModel(DEMO_SCRIPT, { delayMs: 12 });
    default: {
      // Every other provider is made as the registry says (core/llm/providers.ts).
      const spec = providerById(s.provider);
      if (!spec?.create) throw new Error(`No model can be made for the provider "${s.provider}".`);
      return spec.create({
        model: s.model,
        apiKey: s.apiKey || undefined,
        fetch,
        supportsTools: s.toolMode !== 'text',
        ...(limits ? { limits } : {}),
        ...(spec.serverChosen ? { baseUrl: s.baseUrl } : {}),
      });
    }
  }
}
