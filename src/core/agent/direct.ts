// Direct mode: one model call, no tools, the plain schema (direct-prompt.ts). The reply's SQL runs
// read-only through the same execute_sql tool the agent uses; when it fails, the model gets the
// error with the tool's repair detail (close names, ambiguous columns; core/tools/sql-repair.ts)
// and one chance to fix it. The result is checked and explained (explain.ts); a check that finds
// a problem gets one turn to keep or fix the query (one-shot.ts, shared with Auto). Events are the
// agent's (events.ts), so the page, the CLI and `dowser eval --mode direct` read a Direct run
// exactly as an agent run; like runAgent, it never throws and ends with one `final` or `error`.

import type { ChatModel } from '../llm/types';
import type { Schema } from '../types';
import { withPrivacy, type PrivacyLevel, runPolicy } from '../privacy/disclose';
import { directPrompt } from './direct-prompt';
import type { AgentEvent } from './events';
import type { AgentTools } from './loop';
import type { PriorTurn } from './thread';
import { runOneShot } from './one-shot';

export interface RunDirectOptions {
  question: string;
  hints?: string;
  model: ChatModel;
  /** What of the database's cell values may reach the model (privacy/disclose.ts); default full. */
  privacy?: PrivacyLevel;
  tools: AgentTools;
  schema: Schema;
  signal?: AbortSignal;
  /** The conversation's earlier turns (thread.ts). */
  history?: readonly PriorTurn[];
  /** Repairs after a failed query (default 1). */
  maxRepairs?: number;
  /** Rows of the final result carried by the `final` event. */
  finalRows?: number;
  toolTimeoutMs?: number;
  now?: () => number;
}

export async function* runDirect(options: RunDirectOptions): AsyncGenerator<AgentEvent> {
  // Every request, the repair and the check included, passes the privacy gate.
  const policy = runPolicy(options.privacy ?? 'full', options.question, options.history);
  const model = withPrivacy(options.model, policy);
  yield* runOneShot({
    question: options.question,
    hints: options.hints,
    model,
    policy,
    tools: options.tools,
    schema: options.schema,
    signal: options.signal,
    messages: directPrompt(options),
    evidence: false,
    maxRepairs: options.maxRepairs,
    finalRows: options.finalRows ?? 20,
    toolTimeoutMs: options.toolTimeoutMs,
    now: options.now ?? Date.now,
    history: options.history,
  });
}
