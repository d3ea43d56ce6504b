// The privacy level of a run (asked for at first use of a cloud server) and the record of every
// request body the page sends to a model (Show prompt), held for review when the person wants
// to see each prompt before it goes.

import type { PrivacyLevel } from '../../core/privacy/disclose';
import type { ModelSettings } from '../lib/model-settings';
import { privacyLevelOf, privacyTarget } from '../lib/privacy-settings';
import type { OutgoingRequest } from '../services/types';
import { usePrivacy } from '../store/privacy-store';

/** The level for these settings; at first use of a cloud server, the person's choice (null: cancelled). */
export async function privacyLevelFor(settings: ModelSettings): Promise<PrivacyLevel | null> {
  const known = privacyLevelOf(settings, usePrivacy.getState().settings);
  if (known) return known;
  const target = privacyTarget(settings)!;
  const level = await new Promise<PrivacyLevel | null>((resolve) =>
    usePrivacy.setState({ choosing: { target, resolve } }),
  );
  usePrivacy.setState({ choosing: null });
  if (level) usePrivacy.getState().setLevel(target, level);
  return level;
}

export function answerPrivacyChoice(level: PrivacyLevel | null): void {
  usePrivacy.getState().choosing?.resolve(level);
}

let nextId = 0;

const KEY_HEADERS = /^(authorization|x-api-key|api-key)$/i;

/**
 * Records a request about to go out; with review on, resolves only when the person sends it
 * (false: cancelled, and the request is not made).
 */
export async function recordOutgoing(req: OutgoingRequest): Promise<boolean> {
  const id = ++nextId;
  const review = usePrivacy.getState().settings.reviewPrompts;
  const headers = req.headers.map(([k, v]): [string, string] => [k, KEY_HEADERS.test(k) ? '[redacted]' : v]);
  const prompt = { id, url: req.url, method: req.method, headers, body: req.body, at: Date.now() };
  usePrivacy.setState((s) => ({ prompts: [...s.prompts, { ...prompt, status: review ? 'review' : 'sent' }] }));
  if (!review) return true;
  const send = await new Promise<boolean>((resolve) => usePrivacy.setState({ reviewing: { id, resolve } }));
  usePrivacy.setState((s) => ({
    reviewing: null,
    prompts: s.prompts.map((p) => (p.id === id ? { ...p, status: send ? 'sent' : 'cancelled' } : p)),
  }));
  return send;
}

export function answerReview(send: boolean): void {
  usePrivacy.getState().reviewing?.resolve(send);
}
