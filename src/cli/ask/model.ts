// The model behind `dowser ask`, from the command line and the environment. Keys are read from
// an environment variable (never a flag, so they stay out of shell history and `ps`), handed to
// the provider and nowhere else: not to output, events or the transcript.

import { z } from 'zod';
import { DEMO_SCRIPT } from '../../core/agent/demo-script';
import { DEFAULT_OPENAI_URL } from '../../core/llm/providers';
import { createScriptedModel, type ScriptedTurn } from '../../core/llm/scripted';
import type { ChatModel } from '../../core/llm/types';
import { UsageError, type CliIo } from '../command';
import { visible } from '../../core/format/visible';
import { originOf } from '../../core/security/origin';
import { cliProvider, cliStreamLimits, type ModelFlags } from '../model-flags';

export { DEFAULT_OPENAI_URL };

export const scriptSchema = z.array(
  z.strictObject({
    text: z.string().optional(),
    toolCalls: z
      .array(
        z.strictObject({
          name: z.string().min(1),
          arguments: z.union([z.record(z.string(), z.unknown()), z.string()]),
          id: z.string().optional(),
        }),
      )
      .optional(),
  }),
);

/** The turns of a `--script` file: a JSON list of `{ text?, toolCalls?: [{ name, arguments }] }`. */
export function readScript(io: CliIo, path: string): ScriptedTurn[] {
  let text: string;
  try {
    text = new TextDecoder().decode(io.readFile(path));
  } catch (e) {
    throw new UsageError(`cannot read --script "${path}": ${e instanceof Error ? e.message : String(e)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--script "${path}" is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = scriptSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `--script "${path}": at ${issue.path.join('.') || 'the top'}: ${issue.message} (expected a list of {"text"?, "toolCalls"?: [{"name", "arguments"}]})`,
    );
  }
  return parsed.data;
}

export type { ModelFlags };

/**
 * The variable the key comes from, and whether a missing key is an error; null: no key is sent.
 * A provider's own variable (OPENAI_API_KEY …) is bound to its own server, as the page binds a
 * key to its origin (issue 28): another --base-url gets a key only from a variable named with
 * --api-key-env, else none (local servers such as Ollama or LM Studio need none).
 */
export function keySource(o: ModelFlags): { env: string; required: boolean } | null {
  const spec = cliProvider(o.provider);
  if (spec.scripted) return null;
  if (o.apiKeyEnv !== undefined) return { env: o.apiKeyEnv, required: true };
  if (!spec.keyVariable) return null;
  if (o.baseUrl !== undefined && !sameOrigin(o.baseUrl, spec.defaultBaseUrl)) {
    if (spec.keyRequired)
      throw new UsageError(
        `--base-url ${visible(o.baseUrl)} is not ${spec.label}'s own server: name the variable holding its key with --api-key-env (${spec.keyVariable} is sent only to ${(spec.defaultBaseUrl && originOf(spec.defaultBaseUrl)) ?? 'its own server'})`,
      );
    return null;
  }
  return { env: spec.keyVariable, required: true };
}

const sameOrigin = (a: string, b: string | null) => b !== null && originOf(a) !== null && originOf(a) === originOf(b);

export interface AskModel {
  model: ChatModel;
  /** The key, so the command can scrub it from anything it writes; never to be printed. */
  secret?: string;
  /** The variable the key was read from. */
  keyEnv: string | null;
}

export function createAskModel(
  o: ModelFlags,
  io: CliIo,
  env: Record<string, string | undefined> = process.env,
): AskModel {
  const spec = cliProvider(o.provider);
  if (spec.scripted) {
    // Without a script, the page's demo: written for public/demo.sqlite and its demo question.
    if (!o.script)
      return { model: createScriptedModel(DEMO_SCRIPT, { name: o.model ?? 'scripted-demo' }), keyEnv: null };
    return { model: createScriptedModel(readScript(io, o.script), { name: o.model ?? 'scripted' }), keyEnv: null };
  }
  const source = keySource(o);
  const apiKey = source ? env[source.env] || undefined : undefined;
  if (source && !apiKey && source.required) {
    throw new UsageError(
      `no API key: the environment variable ${source.env} is not set (set it, or name another with --api-key-env)`,
    );
  }
  if (!spec.create) throw new UsageError(`--provider ${o.provider} answers in the page only`);
  const fetch = globalThis.fetch.bind(globalThis);
  const chat = spec.create({
    model: o.model ?? '',
    apiKey,
    fetch,
    limits: cliStreamLimits(o),
    ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
  });
  return { model: chat, secret: apiKey, keyEnv: source?.env ?? null };
}
