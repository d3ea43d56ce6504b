// Link in the page: the structure linker in the worker, united with a preliminary Direct SQL when
// a model is configured (core/link/run-link.ts), under the person's privacy level; every request
// shows in Show prompt. The scripted demo writes no SQL of its own: the linker alone, said so.

import type { Plan } from '../../core/agent/plan';
import { NO_MODEL_NOTE, runLink } from '../../core/link/run-link';
import type { SchemaLinkResult } from '../../core/link/schema-link';
import { fullSchema } from '../queries/schema-reading';
import { getServices } from '../services/current';
import { useAsk } from '../store/ask-store';
import { useApp } from '../store/app-store';
import { streamLimitsOf } from '../lib/app-settings';
import { useLink } from '../store/link-store';
import { usePrivacy } from '../store/privacy-store';
import { privacyLevelFor, recordOutgoing } from './privacy';
import { linkQuestion } from './tools';

export async function linkForQuestion(dbId: string, question: string): Promise<void> {
  useLink.getState().set(dbId, { question, status: 'running', result: null });
  const settings = useAsk.getState().model;
  let result: SchemaLinkResult;
  try {
    const schema = await fullSchema(getServices(), dbId);
    const links = await linkQuestion(dbId, question);
    if (settings.provider === 'scripted') {
      result = await runLink({ question, schema, links, model: null });
      result = { ...result, note: `${NO_MODEL_NOTE} Choose a model in Settings to add one.` };
    } else {
      const privacy = await privacyLevelFor(settings);
      if (!privacy) result = await runLink({ question, schema, links, model: null });
      else {
        usePrivacy.getState().clearPrompts(dbId);
        const limits = streamLimitsOf(useApp.getState().settings);
        const model = await getServices().createChatModel(settings, undefined, recordOutgoing, limits);
        result = await runLink({ question, schema, links, model, privacy });
      }
    }
  } catch (e) {
    result = { tables: [], preSql: null, note: `Link failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  useLink.getState().set(dbId, { question, status: 'done', result });
}

/** The chips as the first plan: the whole question as one sub-question, with the linked tables and columns. */
export function planFromLink(question: string, result: SchemaLinkResult): Plan {
  return {
    sub_questions: [
      {
        text: question,
        tables: result.tables.map((t) => ({ table: t.table, columns: t.columns.map((c) => c.column) })),
      },
    ],
  };
}
