// Every model provider, once (issue 27): what the CLI's flags, the privacy default and the key
// binding read about it, and how a model is made from a base URL, a model name and a key. The
// page's in-browser models (WebLLM) are made by an adapter the UI loads, so their entry has no
// `create`; the settings form lists the page's own choices from here too.

import { createAnthropicModel } from './anthropic';
import { createOpenAiCompatibleModel } from './openai-compatible';
import type { ChatModel } from './types';
import type { StreamLimits } from './stream-guard';
import { WEBLLM_ORIGINS } from '../security/csp';

export interface ProviderConfig {
  model: string;
  /** The server; the provider's default when absent. */
  baseUrl?: string;
  apiKey?: string;
  fetch: typeof fetch;
  /** False: the model gets the text protocol instead of native tool calls (the page's "Tool calling"). */
  supportsTools?: boolean;
  /** How long a reply may take to begin, and pause (stream-guard.ts); the clients' default when absent. */
  limits?: StreamLimits;
}

export interface ProviderSpec {
  id: string;
  label: string;
  /** Where a person can choose it. */
  inPage: boolean;
  inCli: boolean;
  /** A model name must be given (the scripted demo has none). */
  needsModel: boolean;
  /** Answers from a file of turns (`--script`), not from a server. */
  scripted: boolean;
  /** The environment variable the CLI reads the key from by default. */
  keyVariable: string | null;
  /** The server used when none is given. */
  defaultBaseUrl: string | null;
  /** The model runs on this machine (in the page or as a script): every level of data may reach it. */
  onDevice: boolean;
  /** A key is always needed (else only when the person names its variable, or the default server is used). */
  keyRequired: boolean;
  /** The person may give a key (the page's key field, bound to the server it is sent to). */
  takesKey: boolean;
  /** The person chooses the server (base URL and presets in the page); else always `defaultBaseUrl`. */
  serverChosen: boolean;
  /** Origins the page must reach besides the server (the in-browser model's downloads). */
  connectOrigins: readonly string[];
  /** Makes the model; absent for a provider only the page's adapters make (WebLLM). */
  create?(config: ProviderConfig): ChatModel;
}

export const DEFAULT_OPENAI_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_URL = 'https://api.anthropic.com';

const BUILT_IN: ProviderSpec[] = [
  {
    id: 'openai',
    label: 'OpenAI-compatible (OpenAI, Ollama, LM Studio, vLLM, OpenRouter…)',
    inPage: true,
    inCli: true,
    needsModel: true,
    scripted: false,
    keyVariable: 'OPENAI_API_KEY',
    defaultBaseUrl: DEFAULT_OPENAI_URL,
    onDevice: false,
    keyRequired: false,
    takesKey: true,
    serverChosen: true,
    connectOrigins: [],
    create: (c) =>
      createOpenAiCompatibleModel({
        baseUrl: (c.baseUrl ?? DEFAULT_OPENAI_URL).replace(/\/+$/, ''),
        model: c.model,
        apiKey: c.apiKey || undefined,
        fetch: c.fetch,
        ...(c.supportsTools === false ? { supportsTools: false } : {}),
        ...(c.limits ? { limits: c.limits } : {}),
      }),
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    inPage: true,
    inCli: true,
    needsModel: true,
    scripted: false,
    keyVariable: 'ANTHROPIC_API_KEY',
    defaultBaseUrl: ANTHROPIC_URL,
    onDevice: false,
    keyRequired: true,
    takesKey: true,
    serverChosen: false,
    connectOrigins: [],
    create: (c) =>
      createAnthropicModel({
        apiKey: c.apiKey ?? '',
        model: c.model,
        fetch: c.fetch,
        ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}),
        ...(c.limits ? { limits: c.limits } : {}),
      }),
  },
  {
    id: 'webllm',
    label: 'In the browser (WebLLM, WebGPU)',
    inPage: true,
    inCli: false,
    needsModel: true,
    scripted: false,
    keyVariable: null,
    defaultBaseUrl: null,
    onDevice: true,
    keyRequired: false,
    takesKey: false,
    serverChosen: false,
    connectOrigins: WEBLLM_ORIGINS,
  },
  {
    id: 'scripted',
    label: 'Scripted demo (no model)',
    inPage: true,
    inCli: true,
    needsModel: false,
    scripted: true,
    keyVariable: null,
    defaultBaseUrl: null,
    onDevice: true,
    keyRequired: false,
    takesKey: false,
    serverChosen: false,
    connectOrigins: [],
  },
];

const registry: ProviderSpec[] = [...BUILT_IN];

/** The providers, in the order they are offered. */
export function providers(where?: 'page' | 'cli'): readonly ProviderSpec[] {
  return where ? registry.filter((p) => (where === 'page' ? p.inPage : p.inCli)) : registry;
}

export function providerById(id: string): ProviderSpec | undefined {
  return registry.find((p) => p.id === id);
}

/**
 * Adds a provider (tests register a fake one to prove every command takes it); returns a
 * function that removes it again.
 */
export function registerProvider(spec: ProviderSpec): () => void {
  if (providerById(spec.id)) throw new Error(`provider "${spec.id}" is registered already`);
  registry.push(spec);
  return () => {
    const at = registry.indexOf(spec);
    if (at >= 0) registry.splice(at, 1);
  };
}
