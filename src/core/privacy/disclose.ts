// The privacy gate. Every request to a model passes through `withPrivacy` (the page's ask and the
// CLI wrap the model of each run; the HTTP clients refuse a body that still carries a data mark,
// so a path that forgot the gate fails loudly instead of leaking). It works on the marks that
// tools/quote-data.ts puts around every database value, so a new tool that quotes its data the
// house way is covered without knowing about privacy.
//
// full     — values as they are (marks removed).
// matches  — a value goes out only when each of its words is a word of the question; row
//            previews become one line saying rows were withheld (counts and column names stay).
//            "Word" is text/normalize.ts's, the one retrieval and the linker use: a value the
//            linker found in the question ('São Paulo' for "sao paulo") is a value the gate lets out.
// schema   — no value at all: each one becomes a placeholder; what is left of statistics is
//            types and counts.

import { withStream, type ChatMessage, type ChatModel, type ChatRequest } from '../llm/types';
import { words } from '../text/normalize';
import { HAS_MARK, MARKS, ROW_OPEN, unmark, VALUE_CLOSE, VALUE_OPEN } from './marks';

export type PrivacyLevel = 'full' | 'matches' | 'schema';

export const PRIVACY_LEVELS: readonly PrivacyLevel[] = ['full', 'matches', 'schema'];

export const PRIVACY_LABELS: Record<PrivacyLevel, string> = {
  full: 'full',
  matches: 'matches only',
  schema: 'schema only',
};

export interface PrivacyPolicy {
  level: PrivacyLevel;
  /** The person's question: under `matches`, the words a value must be made of. */
  question: string;
}

/**
 * A run's policy. Under matches its words are the question's and those of the conversation's
 * earlier questions: the person wrote them all and the thread sends them, so a follow-up ("and
 * their names?") still reads the earlier answer's `city = 'Vexbridge'`.
 */
export function runPolicy(
  level: PrivacyLevel,
  question: string,
  earlier: readonly { question: string }[] = [],
): PrivacyPolicy {
  return { level, question: [...earlier.map((t) => t.question), question].join('\n') };
}

export const WITHHELD_VALUE = '<value withheld>';
export const WITHHELD_ROWS = '(row values withheld by the privacy level: counts and column names only)';

/** A server on this machine: a loopback host (localhost, *.localhost, 127.0.0.0/8, [::1], IPv4-mapped loopback). */
export function isLocalUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname.toLowerCase();
    return (
      host === 'localhost' ||
      host.endsWith('.localhost') ||
      host === '[::1]' ||
      /^127(\.\d{1,3}){3}$/.test(host) ||
      /^\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127(\.\d{1,3}){3})\]$/.test(host)
    );
  } catch {
    return false;
  }
}

/**
 * Whether a model reached this way runs on this machine: made in the page or from a script
 * (the provider's `onDevice`), or served from a loopback address. Whether it takes a key says
 * nothing of where it runs (issue 35, item 17: a keyless server on another host is not local).
 */
export function onThisMachine(provider: { onDevice: boolean } | undefined, server: string | undefined): boolean {
  return provider?.onDevice === true || isLocalUrl(server);
}

/** The words a value must be made of under `matches`: the question's, cut as retrieval cuts them. */
export function askedWords(question: string): ReadonlySet<string> {
  return new Set(words(question));
}

/** The words of a marked value: a JSON string literal (cut ones end in …) or a number. */
function valueWords(marked: string): string[] {
  let text = marked;
  if (marked.startsWith('"')) {
    try {
      text = JSON.parse(marked) as string;
    } catch {
      text = marked.slice(1);
    }
  }
  return words(text.replace(/…$/, ''));
}

/** Whether the level lets these words leave: all under full, none under schema, the question's own under matches. */
function wordsAllowed(valueWordList: string[], policy: PrivacyPolicy, asked: ReadonlySet<string>): boolean {
  if (policy.level === 'full') return true;
  if (policy.level === 'schema') return false;
  return valueWordList.length > 0 && valueWordList.every((x) => asked.has(x));
}

/**
 * Whether a raw cell value (not yet quoted) would pass the gate at this level: for prompt builders
 * that leave out what the gate would withhold instead of sending placeholders. The gate still
 * decides on what is sent.
 */
export function valueAllowed(value: string, policy: PrivacyPolicy): boolean {
  return wordsAllowed(words(value), policy, askedWords(policy.question));
}

/** `text` as the level allows it to leave; no mark survives. */
export function discloseText(text: string, policy: PrivacyPolicy): string {
  if (!HAS_MARK.test(text)) return text;
  const asked = askedWords(policy.question);
  const allowed = (value: string) => wordsAllowed(valueWords(value), policy, asked);
  let out = text;
  if (policy.level !== 'full') {
    // A row line goes as a whole; consecutive ones become one note. An unclosed row runs to its line's end.
    const lines = out.split('\n');
    const kept: string[] = [];
    for (const line of lines) {
      if (!line.includes(ROW_OPEN)) kept.push(line);
      else if (kept[kept.length - 1] !== WITHHELD_ROWS) kept.push(WITHHELD_ROWS);
    }
    out = kept.join('\n');
  }
  // A value runs to its close mark; an unclosed one (cut text) to the end, and is withheld.
  out = out.replace(new RegExp(`${VALUE_OPEN}([^${VALUE_CLOSE}]*)(${VALUE_CLOSE}|$)`, 'g'), (_m, value: string) =>
    allowed(value) ? value : WITHHELD_VALUE,
  );
  return out.replace(MARKS, '');
}

/**
 * What the model reads of a text sent back to it, when that is less than the person sees (values
 * withheld by the level); undefined when both read the same. The page shows it beside the step.
 */
export function modelView(text: string, policy: PrivacyPolicy | undefined): string | undefined {
  if (!policy || policy.level === 'full' || !HAS_MARK.test(text)) return undefined;
  const disclosed = discloseText(text, policy);
  return disclosed === unmark(text) ? undefined : disclosed;
}

/** `{ modelText }` for an event, when the model read less than the person sees. */
export function withModelView(text: string, policy: PrivacyPolicy | undefined): { modelText?: string } {
  const view = modelView(text, policy);
  return view === undefined ? {} : { modelText: view };
}

function discloseMessage(m: ChatMessage, policy: PrivacyPolicy): ChatMessage {
  const content = discloseText(m.content, policy);
  if (m.role === 'assistant' && m.toolCalls)
    return {
      ...m,
      content,
      toolCalls: m.toolCalls.map((c) => ({ ...c, arguments: discloseText(c.arguments, policy) })),
    };
  return { ...m, content };
}

export function discloseRequest(request: ChatRequest, policy: PrivacyPolicy): ChatRequest {
  return { ...request, messages: request.messages.map((m) => discloseMessage(m, policy)) };
}

/** The model of one run behind the gate: every request it sends is disclosed at `policy`. */
export function withPrivacy(model: ChatModel, policy: PrivacyPolicy): ChatModel {
  return withStream(model, (request) => model.stream(discloseRequest(request, policy)));
}

/** For the HTTP clients: a body that still holds a mark did not pass the gate, and is not sent. */
export function assertDisclosed(body: string): void {
  if (HAS_MARK.test(body))
    throw new Error('Database text reached the model client without the privacy gate; the request was not sent.');
}

/** The level a provider gets unless the person chose: full on this machine, `cloud` elsewhere. */
export function defaultPrivacy(
  provider: { onDevice: boolean } | undefined,
  server: string | undefined,
  cloud: PrivacyLevel = 'matches',
): PrivacyLevel {
  return onThisMachine(provider, server) ? 'full' : cloud;
}

export function parsePrivacyLevel(text: string): PrivacyLevel | null {
  return (PRIVACY_LEVELS as readonly string[]).includes(text) ? (text as PrivacyLevel) : null;
}
