// The person's privacy level per model server (core/privacy/disclose.ts), kept on this device:
// chosen the first time a model off this machine is used and changed in Settings. In-browser
// models, the scripted demo and servers on this machine (loopback addresses) get full by default.
// Also whether each prompt is shown for review before it is sent.

import { z } from 'zod';
import { providerById } from '../../core/llm/providers';
import { onThisMachine, PRIVACY_LEVELS, type PrivacyLevel } from '../../core/privacy/disclose';
import { originOf, serverOf, type ModelSettings } from './model-settings';
import { readJson, writeJson } from './storage';

export const PRIVACY_KEY = 'dowser.privacy';

export interface PrivacySettings {
  /** Level per `provider origin` of a cloud server. */
  levels: Record<string, PrivacyLevel>;
  /** Show each request body and wait for Send before it goes out. */
  reviewPrompts: boolean;
}

const schema = z.object({
  levels: z.record(z.string(), z.enum(PRIVACY_LEVELS as [PrivacyLevel, ...PrivacyLevel[]])).catch({}),
  reviewPrompts: z.boolean().catch(false),
});

export function loadPrivacySettings(): PrivacySettings {
  const parsed = schema.safeParse(readJson('local', PRIVACY_KEY));
  return parsed.success ? parsed.data : { levels: {}, reviewPrompts: false };
}

export function savePrivacySettings(s: PrivacySettings): void {
  writeJson('local', PRIVACY_KEY, s);
}

type Target = Pick<ModelSettings, 'provider' | 'baseUrl'>;

/**
 * The server a level belongs to (`provider origin`); null for a model on this machine (in the
 * page, or a loopback server), whose level is full. Decided by where the model runs, never by
 * whether it takes a key.
 */
export function privacyTarget(s: Target): string | null {
  const spec = providerById(s.provider);
  const server = serverOf(s);
  if (onThisMachine(spec, server)) return null;
  return `${spec?.id ?? s.provider} ${originOf(server) ?? server}`;
}

/** The level for these settings; null when a cloud server has none yet (the person must choose). */
export function privacyLevelOf(s: Target, p: PrivacySettings): PrivacyLevel | null {
  const target = privacyTarget(s);
  if (!target) return 'full';
  return p.levels[target] ?? null;
}
