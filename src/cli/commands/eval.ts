// `dowser eval`: execution accuracy, tokens and turns of the product on Spider-, BIRD- or
// SParC-format questions (src/cli/eval/run-eval.ts), scored as the official evaluators score.

import { EXIT_OK, type CliCommand, type CliIo } from '../command';
import { DEFAULT_OPENAI_URL } from '../ask/model';
import { parseEvalArgs } from '../eval/eval-options';
import { runEval } from '../eval/run-eval';
import { keyEnvUsage, modelLimitsUsage, providerList } from '../model-flags';

const usage = `Usage: dowser eval --dataset spider|bird|sparc|cosql --data <dir> --out <dir>
                   --provider ${providerList(['gold'])} [--model <name>] [--base-url <url>]
                   [--api-key-env <VAR>] [--script-dir <dir>] [--mode auto|agent|direct]
                   [--hints on|off] [--context thread|none] [--questions <file>] [--databases <dir>] [--descriptions <dir>]
                   [--limit N] [--ids a,b,…] [--concurrency N] [--retry-failed]
                   [--tools native|text] [--max-turns N] [--compact-observations] [--time-limit <s>] [--max-result-rows N] [--db-url <url>]
                   [--model-timeout <s>] [--answer-time <s>] [--privacy full|matches|schema]

Answers every question the product's way (Auto, the agent or Direct) on its database, runs the final
SQL and the reference read-only, and scores them as the official evaluators do: Spider's
test-suite execution match (result bags, any column order, row order only when the reference
has ORDER BY, DISTINCT dropped) or BIRD's (set of rows equal) and mini-dev soft F1. Reports
accuracy by difficulty (Spider hardness by the official rules, BIRD difficulty) and by the number
of tables the reference reads, the cost per question (tokens with cached ones apart, model
requests, tool calls, seconds: mean and percentiles) and why wrong answers are wrong.

Data:
  --dataset <d>           spider, bird, or sparc / cosql (follow-up questions in interactions: each
                          turn is asked with the model's own earlier answers, scored by Spider's
                          rule per turn and per interaction, reported by turn position) (required)
  --data <dir>            Spider: dev.json + database/<db>/<db>.sqlite;
                          BIRD: dev.json or mini_dev_sqlite.json (+ dev_databases/<db>/<db>.sqlite);
                          SParC / CoSQL: dev.json + dev_gold.txt (databases: --databases)
  --questions <file>      another question file (a Spider-Syn file, a BIRD split …)
  --databases <dir>       BIRD: folder of <db>/<db>.sqlite with <db>/database_description/ (BIRD's
                          databases are a separate download); SParC / CoSQL: Spider's database/
  --descriptions <dir>    BIRD: folder of <db>/database_description/*.csv, if not next to the databases
  --context thread|none   SParC / CoSQL: each turn with the conversation before it (default), or
                          asked alone (to measure what the thread buys)
  --limit N               only the first N questions (after --ids); SParC / CoSQL: interactions
  --ids a,b,…             only these questions: BIRD question_id, or the 0-based position in a
                          Spider-format file; SParC / CoSQL: interactions (0-based in dev.json)

Model (as dowser ask):
  --provider <p>          ${providerList(['gold']).replaceAll('|', ', ')} (openai: any OpenAI-compatible server;
                          gold: the reference SQL)
                          (answers with the reference SQL through the whole path: checks the harness)
  --model <name>          the model name (openai, anthropic)
  --base-url <url>        server URL (openai default ${DEFAULT_OPENAI_URL})
${keyEnvUsage(26)}
  --script-dir <dir>      scripted: one turn file per question, <id>.json (a list of turns, or
                          {"turns": [...]}); spider-dev-<id>.json (as in ../shared/datasets/recorded)
                          is read too. A question without a turn file is skipped and counted.
  --mode auto|agent|direct  auto (default): one grounded request, more on evidence, the agent when
                          needed; agent: the tools from the start; direct: one plain prompt
  --hints on|off          give BIRD's evidence to the model as hints (default off: people rarely
                          have such knowledge; run both to compare)
  --tools native|text     agent: native tool calls or the text protocol (default: what the model supports)
  --max-turns N           agent turns before giving up (default 12)
  --compact-observations  shorten observations the model has acted on in later requests
                          (off by default; docs/decisions/003-prompt-size.md)
${modelLimitsUsage(26, "one question's answer")}
                          A question past either limit is marked failed with the reason, and
                          the run goes on (--retry-failed runs it again).
  --privacy <level>       what of each database's cell values may reach the model, as in dowser ask
                          (full, matches, schema; default: full for scripted and local URLs, matches
                          for a cloud provider). The level is in the first line on stderr.

Run:
  --out <dir>             results.jsonl (a line per question: final SQL, verdict, cost, transcript
                          path), transcripts/<id>.json, summary.json, details.json, summary.md.
                          Running again with the same --out continues: finished questions are kept.
  --concurrency N         questions at a time (default 1); each has its own database worker
  --retry-failed          run again the questions that failed because the provider was unreachable
  --time-limit <s>        limit per query when scoring (default the evaluator's: Spider 60, BIRD 30)
  --max-result-rows N     rows read per query when scoring (default 100000)
  --db-url <url>          ask on PostgreSQL instead: postgres://user@host/spider_{db}, {db} the
                          question's database id (copied there by dowser copy-to-postgres); the
                          reference still runs on the dataset's SQLite file, and numbers the server
                          keeps as text (numeric) and booleans are compared as SQLite gives them
  -h, --help              show this help

A 429 (rate limit) pauses every request of the run for the Retry-After the server asks (or a
growing pause), then retries; a provider that stays unreachable marks the question failed (not
wrong). Ctrl+C stops: finished questions stay, the report covers them; run the same command to
continue. Exit code: 0 when the run finished, 130 when interrupted, 1 when the provider refused
the key or model, 2 for usage errors.
`;

async function run(args: string[], io: CliIo): Promise<number> {
  const o = parseEvalArgs(args);
  if (!o) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  const controller = new AbortController();
  const onInt = () => {
    io.stderr.write(
      '\nStopping: questions in flight are dropped, finished ones kept (Ctrl+C again to quit at once)…\n',
    );
    controller.abort();
  };
  process.once('SIGINT', onInt);
  try {
    const live = !!process.stderr.isTTY && io.stderr === process.stderr;
    return await runEval(o, io, { signal: controller.signal, live });
  } finally {
    process.removeListener('SIGINT', onInt);
  }
}

export const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'execution accuracy and cost of a model on Spider/BIRD questions',
  usage,
  run,
};
