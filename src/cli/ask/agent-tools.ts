// The agent's tools over a database the CLI opened: one place for `dowser ask` and `dowser chat`.

import type { AgentTools } from '../../core/agent/loop';
import { QUESTION_WAITS_FOR_INDEXES_MS } from '../../core/engine';
import type { OpenedDatabase } from '../open-database';

export function agentToolsOf(db: OpenedDatabase): AgentTools {
  return {
    grounding: () => db.engine.grounding(db.id, { waitMs: QUESTION_WAITS_FOR_INDEXES_MS }),
    // The agent's own tool limit (or Stop) abandons a call: the worker stops it too, else the
    // next call would wait behind it.
    call: (name, toolArgs, signal) => {
      const onAbort = () => void db.engine.cancel();
      signal?.addEventListener('abort', onAbort, { once: true });
      return db.engine.callTool(db.id, name, toolArgs).finally(() => signal?.removeEventListener('abort', onAbort));
    },
  };
}
