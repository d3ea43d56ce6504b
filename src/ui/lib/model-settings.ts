// Which language model answers, as the user configured it. The API key stays in memory unless
// the user ticks "remember on this device"; it never goes into URLs, exports or logs, and is
// sent only to the provider chosen here.

export type ProviderKind = 'openai' | 'anthropic' | 'webllm' | 'scripted';

export interface ModelSettings {
  provider: ProviderKind;
  /** Preset name for OpenAI-compatible servers (fills the base URL). */
  preset: string;
  baseUrl: string;
  model: string;
  apiKey: string;
  rememberKey: boolean;
  /** 'auto' uses native tool calling when the provider has it. */
  toolMode: 'auto' | 'native' | 'text';
}

export const OPENAI_PRESETS: Array<{ id: string; label: string; baseUrl: string; model: string; needsKey: boolean }> = [
  { id: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', needsKey: true },
  { id: 'ollama', label: 'Ollama (local)', baseUrl: 'http://localhost:11434/v1', model: 'qwen2.5:7b', needsKey: false },
  {
    id: 'lmstudio',
    label: 'LM Studio (local)',
    baseUrl: 'http://localhost:1234/v1',
    model: 'local-model',
    needsKey: false,
  },
  { id: 'vllm', label: 'vLLM / llama.cpp server', baseUrl: 'http://localhost:8000/v1', model: '', needsKey: false },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    model: 'openai/gpt-4o-mini',
    needsKey: true,
  },
  { id: 'custom', label: 'Custom URL', baseUrl: '', model: '', needsKey: false },
];

const KEY = 'dowser.model';
const SECRET_KEY = 'dowser.model.key';

export const DEFAULT_MODEL_SETTINGS: ModelSettings = {
  provider: 'scripted',
  preset: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  apiKey: '',
  rememberKey: false,
  toolMode: 'auto',
};

export function loadModelSettings(hash: string = typeof location !== 'undefined' ? location.hash : ''): ModelSettings {
  let saved: Partial<ModelSettings> = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) ?? '{}');
  } catch {
    /* private mode or bad JSON: defaults */
  }
  const apiKey = (() => {
    try {
      return localStorage.getItem(SECRET_KEY) ?? '';
    } catch {
      return '';
    }
  })();
  return { ...DEFAULT_MODEL_SETTINGS, ...saved, ...fromDeepLink(hash), apiKey, rememberKey: apiKey !== '' };
}

export function saveModelSettings(s: ModelSettings): void {
  const { apiKey, ...rest } = s;
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...rest, rememberKey: undefined }));
    if (s.rememberKey && apiKey) localStorage.setItem(SECRET_KEY, apiKey);
    else localStorage.removeItem(SECRET_KEY);
  } catch {
    /* kept in memory only */
  }
}

/** `#provider=openai&baseUrl=…&model=…` pre-fills settings; a key in the link is ignored on purpose. */
export function fromDeepLink(hash: string): Partial<ModelSettings> {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const out: Partial<ModelSettings> = {};
  const provider = params.get('provider');
  if (provider === 'openai' || provider === 'anthropic' || provider === 'webllm' || provider === 'scripted')
    out.provider = provider;
  const baseUrl = params.get('baseUrl');
  if (baseUrl && /^https?:\/\//i.test(baseUrl)) {
    out.baseUrl = baseUrl;
    out.preset = 'custom';
  }
  const model = params.get('model');
  if (model) out.model = model.slice(0, 200);
  return out;
}
