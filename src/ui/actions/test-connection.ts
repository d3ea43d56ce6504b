// "Test connection": one tiny request to the model the settings name, with a readable outcome.
// Shared by Settings and the no-model guide on the Ask tab.

import { describeError } from '../../core/errors';
import { completeChat } from '../../core/llm/complete';
import type { ModelSettings } from '../lib/model-settings';
import { getServices } from '../services/current';
import { streamLimitsOf } from '../lib/app-settings';
import { useApp } from '../store/app-store';

export interface ConnectionTest {
  ok: boolean;
  message: string;
}

export async function testConnection(settings: ModelSettings): Promise<ConnectionTest> {
  try {
    const model = await getServices().createChatModel(
      settings,
      undefined,
      undefined,
      streamLimitsOf(useApp.getState().settings),
    );
    const r = await completeChat(model, {
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      maxTokens: 5,
    });
    return { ok: true, message: `Connected: ${model.model} replied "${r.text.trim().slice(0, 40)}".` };
  } catch (e) {
    return { ok: false, message: describeError(e) };
  }
}
