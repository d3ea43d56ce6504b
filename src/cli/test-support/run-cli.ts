// The CLI run in-process with its output captured: what every CLI test needs, written once.

import { readFileSync } from 'node:fs';
import type { CliIo } from '../command';
import { run } from '../main';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** An in-memory CliIo; `out` fills as the CLI writes. `readFile` defaults to the disk. */
export function captureIo(readFile: CliIo['readFile'] = (p) => readFileSync(p)): {
  io: CliIo;
  out: { stdout: string; stderr: string };
} {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: { write: (t: string) => (out.stdout += t) },
    stderr: { write: (t: string) => (out.stderr += t) },
    readFile,
  };
  return { io, out };
}

/** `dowser <argv>` in this process: its exit code and everything it printed. */
export async function runCli(argv: string[], readFile?: CliIo['readFile']): Promise<CliRun> {
  const { io, out } = captureIo(readFile);
  const code = await run(argv, io);
  return { code, ...out };
}

/** The flags that point a command at an OpenAI-compatible server (a mock in tests). */
export function openaiFlags(baseUrl: string, model = 'm'): string[] {
  return ['--provider', 'openai', '--base-url', baseUrl, '--model', model];
}
