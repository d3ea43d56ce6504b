// SParC and CoSQL (issue 23): context-dependent questions over the Spider databases, in
// interactions of several turns. Their files share one format — `dev.json` (per interaction a
// `database_id` and `interaction`: a list of `{utterance, query}`; CoSQL's `final` and
// `turns` fields are not read) and `dev_gold.txt` (one gold SQL and its database per line, tab
// between, a blank line between interactions). The `query` fields and the gold file are
// tokenized as the official scripts read them (`! =`, `> =`); the official evaluator's tokenizer
// joins those operators, and so does `untokenizeSql` here. CoSQL writes a turn in which the
// system asked back as one utterance, " | " between who spoke ("question | did you mean …? | yes");
// `clarifiedUtterance` says who said what, as the product's own thread does. Pure: the caller
// reads the files.

import { clarificationText } from '../agent/thread';

export interface ConversationTurn {
  /** 0-based interaction in dev.json. */
  interaction: number;
  /** 0-based turn in its interaction. */
  turn: number;
  dbId: string;
  question: string;
  goldSql: string;
}

/**
 * "A | B | C" (the person, the system asking back, the person) as the person's question followed
 * by who said what; an even number of parts is the person's own words in turn, joined. A single
 * utterance is left as it is.
 */
export function clarifiedUtterance(utterance: string): string {
  const parts = utterance
    .split(/\s+\|\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 2) return utterance.trim();
  if (parts.length % 2 === 0) return parts.join(' ');
  const lines = [parts[0]];
  for (let i = 1; i + 1 < parts.length; i += 2)
    lines.push(`(${clarificationText({ asked: parts[i], answer: parts[i + 1] })}.)`);
  return lines.join(' ');
}

/** `! =` -> `!=`, `> =` -> `>=`, `< =` -> `<=`, `< >` -> `<>`, outside quoted strings. */
export function untokenizeSql(sql: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (quote) {
      out += c;
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    const m = /^([!<>])\s+([=>])/.exec(sql.slice(i, i + 8));
    if (m && !(m[1] === '>' && m[2] === '>') && !(m[1] === '!' && m[2] === '>')) {
      out += m[1] + m[2];
      i += m[0].length - 1;
      continue;
    }
    out += c;
  }
  return out;
}

/** The gold file's interactions: blocks of `sql \t db` lines, a blank line between blocks. */
export function parseGoldFile(text: string): Array<Array<{ sql: string; dbId: string }>> {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) =>
      block.split('\n').map((line) => {
        const tab = line.lastIndexOf('\t');
        return tab < 0
          ? { sql: untokenizeSql(line.trim()), dbId: '' }
          : { sql: untokenizeSql(line.slice(0, tab).trim()), dbId: line.slice(tab + 1).trim() };
      }),
    );
}

/**
 * Every turn of every interaction, with its gold from the gold file (matched by position: the
 * counts must agree, or the files are not a pair) — the gold file's SQL rather than dev.json's
 * `query`, which some releases tokenize further.
 */
export function conversationTurns(devJson: unknown, goldText: string): ConversationTurn[] {
  if (!Array.isArray(devJson)) throw new Error('dev.json should hold a JSON array of interactions.');
  const gold = parseGoldFile(goldText);
  if (gold.length !== devJson.length)
    throw new Error(`dev.json has ${devJson.length} interactions, the gold file ${gold.length}.`);
  const turns: ConversationTurn[] = [];
  devJson.forEach((raw, interaction) => {
    const it = raw as { database_id?: unknown; interaction?: unknown };
    const dbId = typeof it.database_id === 'string' ? it.database_id : '';
    const list = Array.isArray(it.interaction) ? it.interaction : [];
    if (!dbId || list.length !== gold[interaction].length)
      throw new Error(
        `Interaction ${interaction}: ${dbId ? `${list.length} turns in dev.json, ${gold[interaction].length} in the gold file` : 'no database_id'}.`,
      );
    list.forEach((t: { utterance?: unknown }, turn: number) => {
      const question = typeof t?.utterance === 'string' ? clarifiedUtterance(t.utterance) : '';
      if (!question) throw new Error(`Interaction ${interaction}, turn ${turn}: no utterance.`);
      turns.push({ interaction, turn, dbId, question, goldSql: gold[interaction][turn].sql });
    });
  });
  return turns;
}
