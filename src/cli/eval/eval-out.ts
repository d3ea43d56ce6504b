// The output folder of `dowser eval`, which is also its memory between runs:
//   run.json        the settings (a later run into the same folder must use the same ones)
//   results.jsonl   one line per finished question, appended as each finishes (the last line
//                   for an id wins), so an interrupted run loses at most the questions in flight
//   transcripts/    every question's events, <id>.json
//   summary.json    the issue's fields; details.json the breakdowns; summary.md the report
// Every text written is scrubbed of the provider key, as a last guard.

import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QuestionRecord } from '../../core/eval/eval-record';
import { DowserError } from '../../core/errors';
import { UsageError } from '../command';
import { bigintSafe } from '../json';
import { createRedactor } from '../../core/security/redact';

/** What must match for a folder's results to be continued. */
export interface RunSettings {
  dataset: string;
  questionsFile: string;
  provider: string;
  model: string;
  mode: string;
  hints: boolean;
  tools: string;
  /** SParC / CoSQL: whether turns see the earlier ones (absent in folders of earlier builds: thread). */
  context?: string;
}

const RESULTS = 'results.jsonl';
const SETTINGS = 'run.json';

export class EvalOut {
  /**
   * The one key redaction (core/security/redact.ts): a key too short to be a secret (a local
   * server's "x") is not cut out of every word that holds its letters.
   */
  private readonly redact: (text: string) => string;

  constructor(
    readonly dir: string,
    secret?: string,
  ) {
    this.redact = createRedactor([secret]);
  }

  private write(name: string, text: string): void {
    const scrubbed = this.redact(text);
    try {
      writeFileSync(join(this.dir, name), scrubbed);
    } catch (e) {
      throw new DowserError('internal', `Cannot write ${join(this.dir, name)}: ${e instanceof Error ? e.message : e}`);
    }
  }

  /** Creates the folder, or checks that the run in it had the same settings. */
  open(settings: RunSettings): void {
    mkdirSync(join(this.dir, 'transcripts'), { recursive: true });
    const path = join(this.dir, SETTINGS);
    if (existsSync(path)) {
      const before = JSON.parse(readFileSync(path, 'utf8')) as Partial<RunSettings>;
      const differ = (Object.keys(settings) as Array<keyof RunSettings>).filter((k) => before[k] !== settings[k]);
      if (differ.length)
        throw new UsageError(
          `--out ${this.dir} holds a run with other settings (${differ.map((k) => `${k}: ${String(before[k])}`).join(', ')}); continue it with the same options or use another --out`,
        );
    }
    this.write(SETTINGS, JSON.stringify(settings, null, 2) + '\n');
  }

  /** The finished questions so far, by id (the last line of an id wins; a torn last line is ignored). */
  results(): Map<string, QuestionRecord> {
    const path = join(this.dir, RESULTS);
    const out = new Map<string, QuestionRecord>();
    if (!existsSync(path)) return out;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line) as QuestionRecord;
        if (r && typeof r.id === 'string') out.set(r.id, r);
      } catch {
        // a line cut by a crash: that question simply runs again
      }
    }
    return out;
  }

  append(record: QuestionRecord): void {
    const line = JSON.stringify(record, bigintSafe) + '\n';
    appendFileSync(join(this.dir, RESULTS), this.redact(line));
  }

  /** Writes a question's transcript; returns its path relative to the folder. */
  transcript(id: string, data: unknown): string {
    const name = `transcripts/${id.replace(/[^A-Za-z0-9_.@-]/g, '_')}.json`;
    this.write(name, JSON.stringify(data, bigintSafe, 2) + '\n');
    return name;
  }

  report(summary: unknown, details: unknown, markdown: string): void {
    this.write('summary.json', JSON.stringify(summary, null, 2) + '\n');
    this.write('details.json', JSON.stringify(details, null, 2) + '\n');
    this.write('summary.md', markdown);
  }
}
