// `dowser chat` (issue 23): questions typed one after another about one SQLite file, each a
// follow-up on the answers before it until /new. The database is opened and its tools built once;
// each question runs as `dowser ask` runs one (Auto by default), with the conversation so far as
// its thread. Lines come from the terminal, or from a pipe (a script of questions and commands).

import { QUESTION_WAITS_FOR_INDEXES_MS } from '../../core/engine';
import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';
import { runAnswer, DEFAULT_ANSWER_MODE } from '../../core/agent/answer-mode';
import type { AgentEvent } from '../../core/agent/events';
import { agentToolsOf } from '../ask/agent-tools';
import { priorTurnOf, type PriorTurn } from '../../core/agent/thread';
import { visible } from '../../core/format/visible';
import { redactSecrets } from '../../core/security/redact';
import type { Schema } from '../../core/types';
import { EXIT_OK, type CliCommand, type CliIo } from '../command';
import { toJson } from '../json';
import { onInterrupt } from '../interrupt';
import { openDatabase } from '../open-database';
import { createAskModel } from '../ask/model';
import { parseAskArgs } from '../ask/options';
import { cliAskUser, processTerminal, type Terminal } from '../ask/person';
import { privacyFor, privacyNote, PRIVACY_HELP } from '../ask/privacy';
import { renderEvent, usageLine } from '../ask/render';
import { scrubbingIo } from './ask';
import { cliAnswerLimits, providerList } from '../model-flags';

const usage = `Usage: dowser chat --db <file> --provider ${providerList()} [--model <name>]
                   [--base-url <url>] [--api-key-env <VAR>] [--mode auto|agent|direct]
                   [--privacy full|matches|schema] [--timeout <s>] [--max-rows N] [--non-interactive]
                   [--model-timeout <s>] [--answer-time <s>]

Questions about a SQLite file, typed one after another: each one follows up on the answers
before it ("and only for Germany?"), until /new. The file is read into memory and never written.

At the prompt:
  <a question>       answered with the conversation so far
  /new               start a new conversation
  /sql               print the last answer's SQL
  /export <file>     save the conversation as JSON (dowser ask --continue <file> goes on from it)
  /quit              end (so does the end of the input)

Options are dowser ask's (see dowser ask --help), but for --question and the flags of one run.
${PRIVACY_HELP}
`;

/** Lines of the person's input: the terminal's, or a pipe's. */
export type Lines = AsyncIterable<string>;

function stdinLines(): Lines {
  // The iterator is taken at once: lines a pipe delivers while the database opens are buffered
  // by it, where a readline interface without a reader would drop them.
  const iterator = createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  return { [Symbol.asyncIterator]: () => iterator };
}

interface LastAnswer {
  question: string;
  events: AgentEvent[];
}

export async function runChat(
  args: string[],
  rawIo: CliIo,
  lines: Lines = stdinLines(),
  terminal: Terminal = processTerminal(),
): Promise<number> {
  const o = parseAskArgs(args, { chat: true });
  if (!o) {
    rawIo.stdout.write(usage);
    return EXIT_OK;
  }
  const { model, secret } = createAskModel(o, rawIo);
  const io = scrubbingIo(rawIo, secret);
  const db = await openDatabase(o.db, o.timeoutMs, undefined, { ...o.tableFile, io: rawIo });
  let thread: PriorTurn[] = [];
  let last: LastAnswer | null = null;
  let schema: Schema;
  try {
    schema = await db.engine.introspect(db.id);
    io.stderr.write('Building the retrieval tools…\n');
    // Started, not awaited: questions go out while the indexes are built (issue 26).
    void db.engine.buildTools(db.id).catch(() => undefined);
    const privacy = privacyFor(o);
    io.stderr.write(privacyNote(o, privacy));
    io.stderr.write(
      'Ask a question; each one follows up on the answers before it. /new starts over, /sql shows the last SQL, /export <file> saves, /quit ends.\n',
    );
    const prompt = () => {
      if (terminal.isTTY) io.stderr.write(thread.length ? `(${thread.length} earlier) > ` : '> ');
    };
    prompt();
    for await (const raw of lines) {
      const line = raw.trim();
      if (!line) {
        prompt();
        continue;
      }
      if (/^\/(quit|exit)$/i.test(line)) break;
      if (/^\/new$/i.test(line)) {
        thread = [];
        last = null;
        io.stdout.write('New conversation.\n');
      } else if (/^\/sql$/i.test(line)) {
        const final = last?.events.findLast((e) => e.type === 'final');
        io.stdout.write(
          final && final.type === 'final' ? final.sql.split('\n').map(visible).join('\n') + '\n' : 'No answer yet.\n',
        );
      } else if (/^\/export(\s|$)/i.test(line)) {
        exportThread(io, line.slice('/export'.length).trim(), thread, last, o.db, secret);
      } else if (line.startsWith('/')) {
        io.stdout.write(`Unknown command ${visible(line.split(/\s/)[0])}: /new, /sql, /export <file>, /quit.\n`);
      } else {
        const events = await answer(line);
        last = { question: line, events };
        thread.push(priorTurnOf(line, events));
      }
      prompt();
    }
  } finally {
    await db.close();
  }
  return EXIT_OK;

  async function answer(question: string): Promise<AgentEvent[]> {
    const tools = agentToolsOf(db);
    // Ctrl-C stops this answer; the conversation goes on at the next prompt.
    const controller = new AbortController();
    const offInterrupt = onInterrupt(() => controller.abort());
    const events: AgentEvent[] = [];
    const startedAt = Date.now();
    let total: Extract<AgentEvent, { type: 'usage' }>['total'] | null = null;
    let calls = 0;
    try {
      for await (const e of runAnswer(o!.mode ?? DEFAULT_ANSWER_MODE, {
        question,
        model,
        privacy: privacyFor(o!),
        tools,
        schema,
        links: await db.engine.linkQuestion(db.id, question, { waitMs: QUESTION_WAITS_FOR_INDEXES_MS }),
        signal: controller.signal,
        answerLimits: cliAnswerLimits(o!),
        askUser: cliAskUser({ ...o!, json: false }, io, terminal, controller.signal),
        ...(thread.length ? { history: [...thread] } : {}),
        ...(o!.tools ? { mode: o!.tools } : {}),
        ...(o!.maxRows ? { finalRows: o!.maxRows } : {}),
      })) {
        // The text log shows whole thoughts, not the pieces they stream in (as dowser ask without --json).
        if (e.type === 'thought_delta') continue;
        events.push(e);
        if (e.type === 'usage') {
          total = e.total;
          calls++;
        }
        renderEvent(e, io);
      }
      io.stdout.write(usageLine(total, calls, Date.now() - startedAt) + '\n');
    } finally {
      offInterrupt();
    }
    return events;
  }
}

/** The conversation as a file `dowser ask --continue` reads: its last question and answer, the turns before. */
function exportThread(
  io: CliIo,
  path: string,
  thread: readonly PriorTurn[],
  last: LastAnswer | null,
  database: string,
  secret: string | undefined,
) {
  if (!path) {
    io.stdout.write('/export needs a file name: /export conversation.json\n');
    return;
  }
  if (!last) {
    io.stdout.write('Nothing to export yet.\n');
    return;
  }
  const file = {
    database,
    question: last.question,
    history: thread.slice(0, -1),
    events: last.events,
  };
  try {
    writeFileSync(path, redactSecrets(toJson(file, 2) + '\n', [secret]));
    io.stdout.write(`Saved ${thread.length} turn${thread.length === 1 ? '' : 's'} to ${visible(path)}.\n`);
  } catch (e) {
    io.stderr.write(`error: cannot write "${visible(path)}": ${e instanceof Error ? e.message : String(e)}\n`);
  }
}

export const chatCommand: CliCommand = {
  name: 'chat',
  summary: 'questions about a SQLite file one after another, each following up on the last',
  usage,
  run: (args, io) => runChat(args, io),
};
