// Which language model answers, as the person configured it, and their API keys.
//
// A key is bound to the provider and origin it was entered for: `apiKey` is always the key of
// the current provider + origin (or ''), so pointing the settings at another server — by a
// preset, by typing, or by a link — can never carry a key there. Keys stay in memory unless the
// person keeps them for this tab's session (sessionStorage) or remembers them on this device
// (localStorage); they never go into URLs, exports or logs. Saved settings are parsed with zod
// (`{ version: 2, settings }`); the unversioned shape of earlier builds is migrated.

import { z } from 'zod';
import { readJson, readText, remove, writeJson, type StorageKind } from './storage';
import { providerById } from '../../core/llm/providers';
import { originOf } from '../../core/security/origin';

/** A provider id the page offers (core/llm/providers.ts). */
export type ProviderKind = string;
export type KeyStorage = 'memory' | 'session' | 'local';

/** One key and where it may be sent. */
export interface BoundKey {
  provider: ProviderKind;
  origin: string;
  key: string;
}

export interface ModelSettings {
  provider: ProviderKind;
  /** Preset name for OpenAI-compatible servers (fills the base URL). */
  preset: string;
  baseUrl: string;
  model: string;
  /** The key for the current provider and origin; '' when none was entered for them. */
  apiKey: string;
  /** Where keys are kept between page loads. */
  keyStorage: KeyStorage;
  /** 'auto' uses native tool calling when the provider has it. */
  toolMode: 'auto' | 'native' | 'text';
  /** Every key entered, each bound to its provider and origin. */
  keys: BoundKey[];
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

/** The person's choice of how long a key is kept, as the page words it. */
export const KEY_STORAGE_CHOICES: ReadonlyArray<{ id: KeyStorage; label: string }> = [
  { id: 'memory', label: 'not kept: only while this page is open (forgotten on reload)' },
  { id: 'session', label: 'for this browser session only (this tab, until it is closed)' },
  { id: 'local', label: 'remembered on this device' },
];

export const MODEL_KEY = 'dowser.model';
export const KEYS_KEY = 'dowser.model.keys';
/** Where builds before version 2 kept a remembered key, unbound. */
const LEGACY_KEY = 'dowser.model.key';
const VERSION = 2;

export const DEFAULT_MODEL_SETTINGS: ModelSettings = {
  provider: 'scripted',
  preset: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  apiKey: '',
  keyStorage: 'memory',
  toolMode: 'auto',
  keys: [],
};

const providerKind = z
  .string()
  .max(40)
  .refine((id) => providerById(id)?.inPage === true);
const httpUrl = z
  .string()
  .max(2000)
  .refine((s) => originOf(s) !== null);
const D = DEFAULT_MODEL_SETTINGS;
const savedFields = z.object({
  provider: providerKind.catch(D.provider),
  preset: z.string().max(40).catch(D.preset),
  baseUrl: httpUrl.catch(D.baseUrl),
  model: z.string().max(200).catch(D.model),
  keyStorage: z.enum(['memory', 'session', 'local']).catch(D.keyStorage),
  toolMode: z.enum(['auto', 'native', 'text']).catch(D.toolMode),
});
type SavedFields = z.infer<typeof savedFields>;
const boundKey = z.object({ provider: providerKind, origin: z.string().max(300), key: z.string().min(1).max(500) });
const keyList = z.array(boundKey).max(50);

export { originOf };

/** Where a key for these settings would be sent; null when the provider takes no key. */
export function keyTarget(s: Pick<ModelSettings, 'provider' | 'baseUrl'>): Omit<BoundKey, 'key'> | null {
  const spec = providerById(s.provider);
  if (!spec?.takesKey) return null;
  const origin = originOf(serverOf(s));
  return origin ? { provider: spec.id, origin } : null;
}

/** The server these settings talk to: the person's for a provider whose server they choose, else its own ('' for none). */
export function serverOf(s: Pick<ModelSettings, 'provider' | 'baseUrl'>): string {
  const spec = providerById(s.provider);
  if (!spec) return '';
  return spec.serverChosen ? s.baseUrl : (spec.defaultBaseUrl ?? '');
}

function keyFor(keys: BoundKey[], s: Pick<ModelSettings, 'provider' | 'baseUrl'>): string {
  const t = keyTarget(s);
  return (t && keys.find((k) => k.provider === t.provider && k.origin === t.origin)?.key) || '';
}

/**
 * The settings after a change. A new `apiKey` is bound to the provider and origin the settings
 * point at after the change; any other change re-derives `apiKey` from the bound keys.
 */
export function applyModelPatch(current: ModelSettings, patch: Partial<ModelSettings>): ModelSettings {
  const { apiKey, keys: _ignored, ...rest } = patch;
  const next: ModelSettings = { ...current, ...rest };
  if (apiKey !== undefined) {
    const t = keyTarget(next);
    if (t) {
      const others = next.keys.filter((k) => !(k.provider === t.provider && k.origin === t.origin));
      next.keys = apiKey ? [...others, { ...t, key: apiKey }] : others;
    }
  }
  return { ...next, apiKey: keyFor(next.keys, next) };
}

function loadKeys(storage: KeyStorage): BoundKey[] {
  if (storage === 'memory') return [];
  const parsed = keyList.safeParse(readJson(storage, KEYS_KEY));
  return parsed.success ? parsed.data : [];
}

/**
 * Version 1 saved the settings object itself (spread in unchecked) and a remembered key, bound
 * to nothing, under its own name. The key is bound to the provider and origin those settings
 * pointed at: the only place it was ever meant for.
 */
function migrate(value: unknown): { fields: SavedFields; keys: BoundKey[] } {
  const fields = savedFields.parse(value && typeof value === 'object' ? value : {});
  const legacy = readText('local', LEGACY_KEY);
  if (!legacy) return { fields, keys: [] };
  remove('local', LEGACY_KEY);
  const t = keyTarget(fields);
  if (!t || legacy.length > 500) return { fields, keys: [] };
  return { fields: { ...fields, keyStorage: 'local' }, keys: [{ ...t, key: legacy }] };
}

/** The saved settings (never the link's: see `settingsFromLink`). */
export function loadModelSettings(): ModelSettings {
  const raw = readJson('local', MODEL_KEY);
  const versioned = z.object({ version: z.literal(VERSION), settings: z.unknown() }).safeParse(raw);
  let fields: SavedFields;
  let keys: BoundKey[];
  if (versioned.success) {
    fields = savedFields.parse(versioned.data.settings ?? {});
    keys = loadKeys(fields.keyStorage);
  } else if (raw === undefined || (raw && typeof raw === 'object' && !('version' in raw))) {
    ({ fields, keys } = migrate(raw));
    saveModelSettings({ ...D, ...fields, keys });
  } else {
    fields = savedFields.parse({}); // a newer or unknown version: defaults
    keys = [];
  }
  return { ...D, ...fields, keys, apiKey: keyFor(keys, fields) };
}

/** Keys kept in memory only, carried across one reload the page itself asks for (reload-handoff.ts). */
const RELOAD_KEYS_KEY = 'dowser.reload.keys';

/** Before a reload the page asks for: memory-only keys go to this tab's sessionStorage, read once. */
export function keepKeysForReload(s: ModelSettings): void {
  if (s.keyStorage === 'memory' && s.keys.length) writeJson('session', RELOAD_KEYS_KEY, s.keys);
}

/** The settings with the keys a reload carried (then removed from sessionStorage at once). */
export function withReloadKeys(s: ModelSettings): ModelSettings {
  const raw = readJson('session', RELOAD_KEYS_KEY);
  if (raw === undefined) return s;
  remove('session', RELOAD_KEYS_KEY);
  const parsed = keyList.safeParse(raw);
  if (!parsed.success || s.keyStorage !== 'memory') return s;
  return { ...s, keys: parsed.data, apiKey: keyFor(parsed.data, s) };
}

export function saveModelSettings(s: ModelSettings): void {
  const { provider, preset, baseUrl, model, keyStorage, toolMode } = s;
  writeJson('local', MODEL_KEY, {
    version: VERSION,
    settings: { provider, preset, baseUrl, model, keyStorage, toolMode },
  });
  for (const kind of ['local', 'session'] as StorageKind[]) {
    if (kind === s.keyStorage && s.keys.length) writeJson(kind, KEYS_KEY, s.keys);
    else remove(kind, KEYS_KEY);
  }
}

/** `#provider=openai&baseUrl=…&model=…` from a link; a key in the link is ignored on purpose. */
export function fromDeepLink(hash: string): Partial<Pick<ModelSettings, 'provider' | 'baseUrl' | 'preset' | 'model'>> {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const out: Partial<Pick<ModelSettings, 'provider' | 'baseUrl' | 'preset' | 'model'>> = {};
  const provider = providerKind.safeParse(params.get('provider'));
  if (provider.success) out.provider = provider.data;
  const baseUrl = params.get('baseUrl');
  if (baseUrl && baseUrl.length <= 2000 && originOf(baseUrl)) {
    out.baseUrl = baseUrl;
    out.preset = 'custom';
  }
  const model = params.get('model');
  if (model) out.model = model.slice(0, 200);
  return out;
}

/** What a link would change, field by field; null when it changes nothing. */
export interface LinkProposal {
  patch: Partial<ModelSettings>;
  changes: Array<{ field: 'provider' | 'server' | 'model'; from: string; to: string }>;
}

/**
 * A link's settings are never applied silently: the page shows this proposal and the person
 * decides. Accepting it goes through `applyModelPatch`, so a key bound to the old server stays
 * there and the new server gets only a key entered for it.
 */
export function settingsFromLink(hash: string, current: ModelSettings): LinkProposal | null {
  const link = fromDeepLink(hash);
  const next = { ...current, ...link };
  const changes: LinkProposal['changes'] = [];
  if (next.provider !== current.provider)
    changes.push({ field: 'provider', from: current.provider, to: next.provider });
  const server = (s: ModelSettings) => {
    const url = serverOf(s);
    // The fixed servers are named by their origin, as the key binding names them.
    return providerById(s.provider)?.serverChosen ? url : (originOf(url) ?? url);
  };
  if (server(next) !== server(current)) changes.push({ field: 'server', from: server(current), to: server(next) });
  if (next.model !== current.model) changes.push({ field: 'model', from: current.model, to: next.model });
  return changes.length ? { patch: link, changes } : null;
}

/** Every key the page knows: cut out of anything stored or exported (see core/security/redact). */
export function knownKeys(s: ModelSettings): string[] {
  return s.keys.map((k) => k.key);
}
