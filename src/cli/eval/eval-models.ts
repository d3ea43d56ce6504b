// The model each question is answered by. openai / anthropic: one client for the whole run
// (ask/model.ts: key from an environment variable, never printed) behind the run's rate gate.
// scripted: the scripted model replaying the question's turn file. gold: a model answering every
// request with the reference SQL (core/eval/gold-turns.ts).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldModel } from '../../core/eval/gold-turns';
import type { RateGate } from '../../core/eval/rate-gate';
import { createScriptedModel, type ScriptedTurn } from '../../core/llm/scripted';
import type { ChatModel } from '../../core/llm/types';
import type { Schema } from '../../core/types';
import { UsageError, type CliIo } from '../command';
import { createAskModel, scriptSchema } from '../ask/model';
import { askOptionsFor, type EvalOptions } from './eval-options';
import type { EvalItem } from './eval-questions';
import { providerById } from '../../core/llm/providers';

export interface ModelSource {
  /** Shown in the report: provider and model name. */
  label: { provider: string; model: string };
  /** The key, so everything written can be scrubbed of it. */
  secret?: string;
  keyEnv: string | null;
  /** The model for one question; a string says why there is none (the question is skipped). */
  forQuestion(item: EvalItem, schema: Schema): ChatModel | string;
}

/** `<id>.json`, or the recorded conversations' `spider-dev-<index>.json` / `bird-dev-<id>.json`. */
export function turnFileOf(dir: string, dataset: string, id: string): string | null {
  return [join(dir, `${id}.json`), join(dir, `${dataset}-dev-${id}.json`)].find((p) => existsSync(p)) ?? null;
}

/** A turn file: a list of turns, or an object with `turns` (the recorded conversations' format). */
export function readTurnFile(path: string): ScriptedTurn[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`turn file ${path} is not JSON: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const turns = Array.isArray(json) ? json : (json as { turns?: unknown } | null)?.turns;
  const parsed = scriptSchema.safeParse(turns);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`turn file ${path}: at ${issue.path.join('.') || 'the top'}: ${issue.message}`);
  }
  return parsed.data;
}

export function modelSource(o: EvalOptions, io: CliIo, gate: RateGate): ModelSource {
  if (o.provider === 'gold') {
    return {
      label: { provider: 'gold', model: 'reference SQL' },
      keyEnv: null,
      forQuestion: (item, schema) => goldModel(item.goldSql, item.question, schema),
    };
  }
  if (providerById(o.provider)?.scripted) {
    const dir = o.scriptDir!;
    if (!existsSync(dir)) throw new UsageError(`--script-dir "${dir}" does not exist`);
    return {
      label: { provider: 'scripted', model: dir },
      keyEnv: null,
      forQuestion: (item) => {
        const file = turnFileOf(dir, o.dataset, item.id);
        if (!file) return 'no turn file';
        try {
          return createScriptedModel(readTurnFile(file), { name: 'scripted' });
        } catch (e) {
          return `bad turn file: ${e instanceof Error ? e.message : String(e)}`;
        }
      },
    };
  }
  const { model, secret, keyEnv } = createAskModel(askOptionsFor(o), io);
  const gated = gate.wrap(model);
  return {
    label: { provider: model.provider, model: model.model },
    secret,
    keyEnv,
    forQuestion: () => gated,
  };
}
