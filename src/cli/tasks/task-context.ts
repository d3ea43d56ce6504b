// What every task command runs in: the model from the flags, the key scrubbed from all output,
// the database opened in the engine's worker (read-only copy), its schema, the agent tools over
// it (built once), and Ctrl-C that stops the model call and the worker.

import type { AgentTools } from '../../core/agent/loop';
import type { SqlExecutor } from '../../core/executor';
import { executorFor } from '../../core/executor';
import type { ChatModel } from '../../core/llm/types';
import type { Schema } from '../../core/types';
import type { CliIo } from '../command';
import { scrubbingIo } from '../commands/ask';
import { onInterrupt } from '../interrupt';
import { openDatabase } from '../open-database';
import { createAskModel } from '../ask/model';
import type { TaskOptions } from './task-options';
import type { PrivacyLevel } from '../../core/privacy/disclose';
import { privacyFor, privacyNote } from '../ask/privacy';
import { AnswerBudget } from '../../core/agent/answer-budget';
import { cliAnswerLimits } from '../model-flags';

export interface TaskContext {
  io: CliIo;
  model: ChatModel;
  schema: Schema;
  tools: AgentTools;
  exec: SqlExecutor;
  signal: AbortSignal;
  /** What of the cell values may reach the model (--privacy or the provider's default). */
  privacy: PrivacyLevel;
}

export async function withTaskContext<T>(
  o: TaskOptions,
  rawIo: CliIo,
  run: (ctx: TaskContext) => Promise<T>,
  options: { tools?: boolean } = {},
): Promise<T> {
  const { model, secret } = createAskModel(o, rawIo);
  const io = scrubbingIo(rawIo, secret);
  const privacy = privacyFor(o);
  if (!o.json) io.stderr.write(privacyNote(o, privacy));
  const db = await openDatabase(o.db, o.timeoutMs, undefined, { ...o.tableFile, io: rawIo });
  const controller = new AbortController();
  const offInterrupt = onInterrupt(() => controller.abort());
  let budget: AnswerBudget | undefined;
  try {
    const schema = await db.engine.introspect(db.id);
    if (options.tools !== false) {
      if (!o.json) io.stderr.write('Building the retrieval tools…\n');
      await db.engine.buildTools(db.id);
    }
    // The command's budget, as one answer's (decision 068): its model calls stop once it is spent.
    budget = new AnswerBudget(cliAnswerLimits(o));
    const tools: AgentTools = {
      call: (name, args, signal) => {
        const onAbort = () => void db.engine.cancel();
        signal?.addEventListener('abort', onAbort, { once: true });
        return db.engine.callTool(db.id, name, args).finally(() => signal?.removeEventListener('abort', onAbort));
      },
    };
    return await run({
      io,
      model: budget.model(model),
      schema,
      tools,
      exec: executorFor(db.engine, db.id),
      signal: controller.signal,
      privacy,
    });
  } finally {
    budget?.end();
    offInterrupt();
    await db.close();
  }
}
