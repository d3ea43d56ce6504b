// The person at the terminal, for ask_user and --pause-after-plan. Only a terminal can answer:
// when stdin is piped or redirected nobody is there to type, so the run goes on as with
// --non-interactive (first option; continue after the plan) and says so. Prompts go to stderr
// so --json output on stdout stays one event per line.

import { createInterface } from 'node:readline/promises';
import type { AskUser } from '../../core/agent/ask-user';
import type { OnPlan } from '../../core/agent/plan-pause';
import { visible } from '../../core/format/visible';
import type { CliIo } from '../command';

/** Where answers are read from (a fake in tests). */
export interface Terminal {
  readonly isTTY: boolean;
  /** Shows `prompt` and resolves to the line typed. */
  ask(prompt: string, signal?: AbortSignal): Promise<string>;
}

export function processTerminal(): Terminal {
  return {
    isTTY: !!process.stdin.isTTY,
    async ask(prompt, signal) {
      // One interface per question: an open one would keep stdin (and the process) alive.
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(prompt, signal ? { signal } : {});
      } finally {
        rl.close();
      }
    },
  };
}

export interface PersonOptions {
  nonInteractive: boolean;
  json: boolean;
}

/** Log lines go where they do not break the output: stderr under --json, else stdout. */
const logTo = (io: CliIo, o: PersonOptions) => (text: string) => (o.json ? io.stderr : io.stdout).write(text + '\n');

/**
 * The person at the terminal answers ask_user; with --non-interactive, or when stdin is not a
 * terminal, nobody can: 'first-option' makes the loop take the first option and say so (in the
 * `ask` event's defaultAnswer and to the model).
 */
export function cliAskUser(
  o: PersonOptions,
  io: CliIo,
  terminal: Terminal,
  signal?: AbortSignal,
): AskUser | 'first-option' {
  if (o.nonInteractive || !terminal.isTTY) return 'first-option';
  const log = logTo(io, o);
  return async ({ question, options }) => {
    const lines = [`The model asks: ${visible(question)}`, ...options.map((opt, i) => `  ${i + 1}. ${visible(opt)}`)];
    io.stderr.write(lines.join('\n') + '\n');
    const typed = (await terminal.ask(`Answer (1-${options.length}, or type your own; Enter = 1): `, signal)).trim();
    const n = /^\d+$/.test(typed) ? Number(typed) : NaN;
    const answer = typed === '' ? options[0] : n >= 1 && n <= options.length ? options[n - 1] : typed;
    log(`asked: ${visible(question)} → answered ${JSON.stringify(visible(answer))}`);
    return answer;
  };
}

/** --pause-after-plan: the plan was printed with its event; Continue or stop here. */
export function cliOnPlan(o: PersonOptions, io: CliIo, terminal: Terminal, signal?: AbortSignal): OnPlan {
  return async () => {
    if (o.nonInteractive || !terminal.isTTY) {
      logTo(
        io,
        o,
      )(`pause after plan: continuing (${o.nonInteractive ? 'non-interactive' : 'stdin is not a terminal'})`);
      return { action: 'continue' };
    }
    const typed = (await terminal.ask('Continue? [Y/n] ', signal)).trim().toLowerCase();
    return typed === 'n' || typed === 'no' ? { action: 'stop' } : { action: 'continue' };
  };
}
