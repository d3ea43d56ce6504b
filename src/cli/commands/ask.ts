// `dowser ask`: answers one question about a SQLite file with the agent, printing its events as
// they happen (readable lines, or JSONL with --json). The pieces live in src/cli/ask/.

import { QUESTION_WAITS_FOR_INDEXES_MS } from '../../core/engine';
import { checkStep } from '../../core/agent/check-step';
import { agentToolsOf } from '../ask/agent-tools';
import { ANSWER_MODE_HELP, DEFAULT_ANSWER_MODE, runAnswer } from '../../core/agent/answer-mode';
import { DEMO_QUESTION } from '../../core/agent/demo-script';
import type { AgentEvent } from '../../core/agent/events';
import { EXIT_ERROR, EXIT_OK, type CliCommand, type CliIo } from '../command';
import { toJson } from '../json';
import { createStreamRedactor, redactSecrets } from '../../core/security/redact';
import { EXIT_INTERRUPTED, onInterrupt } from '../interrupt';
import { openDatabase } from '../open-database';
import { tableFileUsage } from '../table-file-flags';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../../worker/db-client';
import { createAskModel, DEFAULT_OPENAI_URL } from '../ask/model';
import { parseAskArgs, type AskOptions } from '../ask/options';
import { PRIVACY_HELP, privacyFor, privacyNote } from '../ask/privacy';
import type { Schema } from '../../core/types';
import { cliAskUser, cliOnPlan, processTerminal, type Terminal } from '../ask/person';
import { planFromFile, readPlanFile } from '../ask/plan-file';
import { renderEvent, usageLine } from '../ask/render';
import { buildTranscript, writeTranscript } from '../ask/transcript';
import { threadOfTranscript } from '../ask/continue';
import { CHART_USAGE, writeChart } from '../chart-flags';
import { DEFAULT_MAX_ROWS } from '../../core/db/result-budget';
import { cliAnswerLimits, keyEnvUsage, modelLimitsUsage, providerList, providerUsage } from '../model-flags';

const usage = `Usage: dowser ask --db <file> --question "<question>" --provider ${providerList()}
                  [--mode auto|agent|direct] [--model <name>] [--base-url <url>] [--api-key-env <VAR>] [--hints "<hints>"]
                  [--script <turns.json>] [--tools native|text] [--max-turns N] [--max-rows N]
                  [--transcript <file>] [--json] [--timeout <s>] [--privacy full|matches|schema]
                  [--model-timeout <s>] [--answer-time <s>]
                  [--plan <plan.json> [--check-step N]] [--pause-after-plan] [--non-interactive]
                  [--continue <transcript.json>] [--chart <file.svg> [--chart-type T] [--x C] [--y C] [--series C]]

Answers a question about a SQLite file with one read-only query, whose rows are shown with a
plain-words explanation. The file is read into memory and never written.

Options:
  --mode <m>           auto (default; agent for --provider scripted): ${ANSWER_MODE_HELP.auto}
                       agent: ${ANSWER_MODE_HELP.agent}
                       direct: ${ANSWER_MODE_HELP.direct}
  --db <file>          the SQLite database file (required)
  --question "<q>"     the question (required)
  --hints "<h>"        extra knowledge the question needs (e.g. "rich means balance > 1M")
${providerUsage()} (required)
  --model <name>       the model name (required except for scripted)
  --base-url <url>     server URL (openai default ${DEFAULT_OPENAI_URL}; e.g.
                       http://localhost:11434/v1 for Ollama)
${keyEnvUsage()}
  --script <file>      scripted provider: a JSON list of turns
                       [{"text"?: "...", "toolCalls"?: [{"name": "...", "arguments": {...}}]}]
                       (without it: the built-in demo, made for public/demo.sqlite and the
                       question "${DEMO_QUESTION}")
  --tools native|text  native tool calls, or the Thought/Action text protocol (default: native
                       when the provider supports tools)
  --max-turns N        model turns before giving up (default 12); at the limit the last SQL that
                       returned rows is shown as an unverified answer
  --max-rows N         rows of the answer to print and to carry in the final event (default 20)
  --timeout <s>        time limit of one query or tool call in seconds (default ${DEFAULT_QUERY_TIMEOUT_MS / 1000});
                       a tool call that runs longer is stopped and the model is told so
${tableFileUsage(23)}
${modelLimitsUsage()}
${PRIVACY_HELP}
  --transcript <file>  write the whole run (question, hints, provider, model, all events) as JSON
  --continue <file>    follow up on the conversation a --transcript file ends: the model gets its
                       earlier questions, their SQL, result columns and row counts (rows as
                       --privacy allows); with --transcript the new file carries the thread on
  --json               one JSON event per line: status, plan, plan_waiting, thought_delta,
                       thought, action, observation, ask {question, options, defaultAnswer?}, sql,
                       usage, then final {sql, columns, rows, totalRows, truncated, explanation,
                       verdict, unverified?} or error {code, message}; final carries at most
                       --max-rows rows (totalRows says how many the SQL returns)
  --plan <file>        run with this plan as confirmed by the user (no re-planning): a JSON
                       file in the submit_plan shape {"sub_questions": [{"text": "...",
                       "tables": [{"table": "...", "columns": ["..."]}]}]}; checked against
                       the database first (problems: exit 2, listed)
  --check-step N       with --plan: instead of answering, check sub-question N (1-based): a short
                       run writes a small SQL for just that step and prints its first 5 rows
                       (--question is optional then)
  --pause-after-plan   print the model's plan and ask "Continue? [Y/n]" (not a terminal: continue)
  --non-interactive    nobody answers a clarifying question: the first option is taken by
                       default, and the ask event (defaultAnswer) and the model are told so (also
                       what happens when stdin is not a terminal)
${CHART_USAGE.replace('the rows as a chart', "the answer's rows as a chart")}
  -h, --help           show this help

Exit code: 0 when a final SQL (or a step preview) ran, 1 otherwise, 2 for usage errors.
`;

/** Core's key message points at the page's Settings; on the command line the key is a variable. */
function forCli(e: AgentEvent, keyEnv: string | null): AgentEvent {
  if (e.type !== 'error' || e.code !== 'llm_auth' || !keyEnv) return e;
  return {
    ...e,
    message: e.message.replace(/Check the key in Settings/, `Check the key in the environment variable ${keyEnv}`),
  };
}

/**
 * Writes through `io` with the key cut out (core/security/redact: the page's routine), so a
 * server echoing it must not put it on screen. Short keys (`ollama`) are no secret and stay.
 */
export function scrubbingIo(io: CliIo, secret: string | undefined): CliIo {
  if (!secret) return io;
  const scrub = (t: string) => redactSecrets(t, [secret]);
  return {
    ...io,
    stdout: { write: (t: string) => io.stdout.write(scrub(t)) },
    stderr: { write: (t: string) => io.stderr.write(scrub(t)) },
  };
}

/** The command with the terminal injected, so tests can play the person. */
export async function runAsk(args: string[], rawIo: CliIo, terminal: Terminal = processTerminal()): Promise<number> {
  const o = parseAskArgs(args);
  if (!o) {
    rawIo.stdout.write(usage);
    return EXIT_OK;
  }
  const planJson = o.plan ? readPlanFile(rawIo, o.plan) : undefined;
  // Read before anything starts: a transcript that cannot be continued is the person's to fix.
  const history = o.continueFrom ? threadOfTranscript(rawIo, o.continueFrom) : [];
  const { model, secret, keyEnv } = createAskModel(o, rawIo);
  const io = scrubbingIo(rawIo, secret);
  const startedAt = Date.now();
  const db = await openDatabase(o.db, o.timeoutMs, o.json ? undefined : (line) => io.stderr.write(line + '\n'), {
    ...o.tableFile,
    io: rawIo,
  });
  // Ctrl-C stops the run cleanly (an `aborted` error event, the transcript still written); the
  // engine's worker is ended too (see interrupt.ts), so a running query cannot hold the exit.
  const controller = new AbortController();
  const offInterrupt = onInterrupt(() => controller.abort());
  const events: AgentEvent[] = [];
  // Streamed pieces can split a key: they are redacted as one stream, before output and transcript.
  const deltas = createStreamRedactor([secret]);
  let final = false;
  let answer: Extract<AgentEvent, { type: 'final' }> | null = null;
  let chartFailed = false;
  try {
    const schema = await db.engine.introspect(db.id);
    // The plan is checked before the tools are built: its problems are the person's to fix first.
    const plan = o.plan ? planOrErrorEvent(o, io, planJson, schema) : undefined;
    if (!o.json) io.stderr.write('Building the retrieval tools…\n');
    // Started, not awaited: a large file's first request goes out with sampled values while the
    // indexes are built; a tool call waits for them (issue 26). A failed build fails that call.
    void db.engine.buildTools(db.id).catch(() => undefined);
    const tools = agentToolsOf(db);
    const signal = controller.signal;
    const privacy = privacyFor(o);
    if (!o.json) io.stderr.write(privacyNote(o, privacy));
    let total = null as Extract<AgentEvent, { type: 'usage' }>['total'] | null;
    let calls = 0;
    const run =
      plan && o.checkStep
        ? checkStep({
            model,
            tools,
            schema,
            plan,
            index: o.checkStep - 1,
            question: o.question,
            privacy,
            signal,
            answerLimits: cliAnswerLimits(o),
            ...(o.tools ? { mode: o.tools } : {}),
          })
        : runAnswer(o.mode ?? DEFAULT_ANSWER_MODE, {
            question: o.question,
            hints: o.hints,
            model,
            privacy,
            tools,
            schema,
            links: await db.engine.linkQuestion(db.id, o.question, { waitMs: QUESTION_WAITS_FOR_INDEXES_MS }),
            // Auto's first request shows each column's stored values from the built indexes.
            signal,
            answerLimits: cliAnswerLimits(o),
            confirmedPlan: plan,
            askUser: cliAskUser(o, io, terminal, signal),
            ...(history.length ? { history } : {}),
            onPlan: o.pauseAfterPlan ? cliOnPlan(o, io, terminal, signal) : undefined,
            // Left out when not given: runAgent's defaults are spread under the options, so undefined would win.
            ...(o.tools ? { mode: o.tools } : {}),
            ...(o.maxTurns ? { maxTurns: o.maxTurns } : {}),
            ...(o.maxRows ? { finalRows: o.maxRows } : {}),
          });
    const emit = (e: AgentEvent) => {
      events.push(e);
      if (o.json) io.stdout.write(toJson(e) + '\n');
      else renderEvent(e, io);
    };
    for await (const raw of run) {
      if (raw.type === 'thought_delta') {
        const text = deltas.push(raw.text);
        if (text) emit({ ...raw, text });
        continue;
      }
      const rest = deltas.flush();
      if (rest) emit({ type: 'thought_delta', text: rest, step: raw.step, at: raw.at });
      const e = forCli(raw, keyEnv);
      if (e.type === 'final' || e.type === 'step_preview') final = true;
      if (e.type === 'final') answer = e;
      if (e.type === 'usage') {
        total = e.total;
        calls++;
      }
      emit(e);
    }
    if (!o.json) io.stdout.write(usageLine(total, calls, Date.now() - startedAt) + '\n');
    if (o.chart && answer) {
      // The final event carries --max-rows rows; the chart draws the answer's whole result (capped).
      const rows = answer.truncated ? await db.engine.query(db.id, answer.sql, { maxRows: DEFAULT_MAX_ROWS }) : answer;
      chartFailed = !(await writeChart(o.chart, rows, io));
    }
  } finally {
    offInterrupt();
    await db.close();
  }
  const code = final && !chartFailed ? EXIT_OK : controller.signal.aborted ? EXIT_INTERRUPTED : EXIT_ERROR;
  if (o.transcript) {
    const transcript = buildTranscript(o, model, keyEnv, startedAt, events, code, history);
    writeTranscript(o.transcript, transcript, secret);
  }
  return code;
}

/** The --plan file checked against the schema; under --json a bad plan is also an `error` event. */
function planOrErrorEvent(o: AskOptions, io: CliIo, raw: unknown, schema: Schema) {
  try {
    return planFromFile(raw, o.plan!, schema, o.checkStep);
  } catch (e) {
    if (o.json && e instanceof Error) {
      const event: AgentEvent = { type: 'error', code: 'bad_plan', message: e.message, step: 0, at: Date.now() };
      io.stdout.write(JSON.stringify(event) + '\n');
    }
    throw e;
  }
}

export const askCommand: CliCommand = {
  name: 'ask',
  summary: 'answer a question about a SQLite file with a model and the tools',
  usage,
  run: (args, io) => runAsk(args, io),
};
