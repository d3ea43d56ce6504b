// Link with or without a model: the structure linker always; with a model, one Direct call (the
// study's best plain template, agent/direct-prompt.ts) writes a preliminary SQL whose tables and
// columns join the linker's. The SQL is not run: only the names it uses matter. A failed model
// call leaves the linker's result, with the reason as a note.

import { directPrompt, sqlFromReply } from '../agent/direct-prompt';
import { completeChat } from '../llm/complete';
import { LlmError, type ChatModel } from '../llm/types';
import { withPrivacy, type PrivacyLevel } from '../privacy/disclose';
import type { QuestionLink } from '../retrieval/linker';
import type { Schema } from '../types';
import { linkSchema, type SchemaLinkResult } from './schema-link';

export const NO_MODEL_NOTE = 'No model is configured: the structure linker alone (no preliminary SQL).';

export async function runLink(input: {
  question: string;
  schema: Schema;
  links: readonly QuestionLink[];
  model?: ChatModel | null;
  privacy?: PrivacyLevel;
  signal?: AbortSignal;
}): Promise<SchemaLinkResult> {
  const { schema, links } = input;
  if (!input.model) return linkSchema({ schema, links, note: NO_MODEL_NOTE });
  const model = withPrivacy(input.model, { level: input.privacy ?? 'full', question: input.question });
  try {
    const reply = await completeChat(model, {
      messages: directPrompt({ question: input.question, schema }),
      temperature: 0,
      signal: input.signal,
    });
    const preSql = sqlFromReply(reply.text);
    return linkSchema({
      schema,
      links,
      preSql: preSql || null,
      note: preSql ? null : 'The model replied without SQL: the structure linker alone.',
    });
  } catch (e) {
    const why = e instanceof LlmError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
    return linkSchema({ schema, links, note: `The preliminary SQL failed (${why}): the structure linker alone.` });
  }
}
