// Progress of `dowser eval` on stderr: a bar redrawn in place on a terminal, otherwise a line at
// every tenth of the way (and at most every 30 s). The estimate is the wall time per question of
// this run so far (concurrency included) times the questions left.

import type { QuestionRecord } from '../../core/eval/eval-record';

export interface ProgressOptions {
  write: (text: string) => void;
  /** Redraw one line (a terminal) instead of printing lines. */
  live: boolean;
  now?: () => number;
}

const WIDTH = 24;

export function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

export class EvalProgress {
  private done = 0;
  private correct = 0;
  private scored = 0;
  private lastPrinted = -1;
  private lastAt = 0;
  private readonly started: number;

  constructor(
    private readonly total: number,
    private readonly o: ProgressOptions,
  ) {
    this.started = this.now();
  }

  private now() {
    return (this.o.now ?? Date.now)();
  }

  line(): string {
    const share = this.total ? this.done / this.total : 1;
    const filled = Math.round(share * WIDTH);
    const bar = '#'.repeat(filled) + '.'.repeat(WIDTH - filled);
    const parts = [`[${bar}] ${this.done}/${this.total} ${Math.round(share * 100)}%`];
    if (this.scored) parts.push(`EX ${((100 * this.correct) / this.scored).toFixed(1)}%`);
    const elapsed = (this.now() - this.started) / 1000;
    if (this.done) {
      parts.push(`${(elapsed / this.done).toFixed(1)} s/question`);
      if (this.done < this.total)
        parts.push(`about ${duration((elapsed / this.done) * (this.total - this.done))} left`);
    }
    return parts.join(' · ');
  }

  /** Shows the start (questions already done in an earlier run are not counted here). */
  start(note: string): void {
    this.o.write(`${note}\n`);
    this.draw(true);
  }

  tick(record: QuestionRecord): void {
    this.done++;
    if (record.ex !== null) {
      this.scored++;
      if (record.ex === 1) this.correct++;
    }
    this.draw(false);
  }

  /** A message between redraws (a rate-limit pause …). */
  note(text: string): void {
    this.o.write(this.o.live ? `\r\x1b[2K${text}\n` : `${text}\n`);
    if (this.o.live) this.draw(true);
  }

  finish(): void {
    if (this.o.live) this.o.write('\n');
    else if (this.lastPrinted !== this.done) this.o.write(this.line() + '\n');
  }

  private draw(force: boolean): void {
    if (this.o.live) {
      this.o.write(`\r\x1b[2K${this.line()}`);
      return;
    }
    const step = Math.max(1, Math.ceil(this.total / 10));
    const due = this.done % step === 0 || this.done === this.total || this.now() - this.lastAt > 30_000;
    if (!force && !due) return;
    this.lastPrinted = this.done;
    this.lastAt = this.now();
    this.o.write(this.line() + '\n');
  }
}
