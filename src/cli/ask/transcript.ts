// The record of one `dowser ask` run, written with --transcript: what was asked, of which model,
// and every event. Built from an allow-list of fields so the key (or a URL carrying credentials)
// cannot end up in it by accident.

import { writeFileSync } from 'node:fs';
import type { AgentEvent } from '../../core/agent/events';
import { displayUrl } from '../../core/llm/errors';
import { DowserError } from '../../core/errors';
import { toJson } from '../json';
import { redactSecrets } from '../../core/security/redact';
import type { AskOptions } from './options';
import type { PriorTurn } from '../../core/agent/thread';

export interface Transcript {
  question: string;
  hints: string | null;
  database: string;
  provider: string;
  model: string;
  /** Origin and path only. */
  baseUrl: string | null;
  /** Where the key came from (the variable's name), never the key. */
  apiKeyEnv: string | null;
  tools: 'native' | 'text' | 'auto';
  startedAt: string;
  ms: number;
  exitCode: number;
  /** The conversation's turns before this one (--continue), so a later --continue goes on from here. */
  history?: PriorTurn[];
  events: AgentEvent[];
}

export function buildTranscript(
  o: AskOptions,
  model: { provider: string; model: string },
  keyEnv: string | null,
  startedAt: number,
  events: AgentEvent[],
  exitCode: number,
  history: PriorTurn[] = [],
): Transcript {
  return {
    question: o.question,
    hints: o.hints ?? null,
    database: o.db,
    provider: o.provider === 'openai' ? `openai (${model.provider})` : model.provider,
    model: model.model,
    baseUrl: o.baseUrl ? displayUrl(o.baseUrl) : null,
    apiKeyEnv: keyEnv,
    tools: o.tools ?? 'auto',
    startedAt: new Date(startedAt).toISOString(),
    ms: Date.now() - startedAt,
    exitCode,
    ...(history.length ? { history } : {}),
    events,
  };
}

/** `secret` is cut out of the text as a last guard (core/security/redact), like the command's output. */
export function writeTranscript(path: string, transcript: Transcript, secret?: string): void {
  const text = redactSecrets(toJson(transcript, 2) + '\n', [secret]);
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new DowserError(
      'internal',
      `Cannot write the transcript to "${path}": ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
