import { useRef, useState } from 'react';
import { runToJson, runToMarkdown } from '../../../core/export/run-export';
import { sqlFileText } from '../../../core/export/sql-file';
import { baseName, downloadText } from '../../lib/download';
import { useApp } from '../../store/app-store';
import { useAsk, type AskRun } from '../../store/ask-store';
import { redactDeep } from '../../../core/security/redact';
import { knownKeys } from '../../lib/model-settings';
import { RUN_FILE_LIMIT, sizeRefusal } from '../../lib/file-limits';
import { useServices } from '../../services/context';

/** Download the run (JSON, Markdown) or its SQL; no API key is ever part of a run. */
export function RunExportButtons({ run: shownRun }: { run: AskRun }) {
  // Runs in the store are redacted already; keys entered since are cut here too.
  const model = useAsk((s) => s.model);
  const thread = useAsk((s) => s.threads[shownRun.dbId]);
  // A follow-up's file holds its conversation: the turns before it, oldest first.
  const earlier = (thread ?? []).filter(
    (t) => t.threadId === shownRun.threadId && (t.turn ?? 0) < (shownRun.turn ?? 0),
  );
  const run = redactDeep({ ...shownRun, ...(earlier.length ? { earlier } : {}) }, knownKeys(model));
  const final = run.events.find((e) => e.type === 'final');
  const plan = [...run.events].reverse().find((e) => e.type === 'plan');
  const name = `${baseName(run.dbName)}-${baseName(run.question).slice(0, 40) || 'run'}`;
  return (
    <span className="row gap run-export">
      <button
        type="button"
        className="small secondary"
        onClick={() => downloadText(`${name}.json`, runToJson(run), 'application/json')}
      >
        Run as JSON
      </button>
      <button
        type="button"
        className="small secondary"
        onClick={() => downloadText(`${name}.md`, runToMarkdown(run), 'text/markdown')}
      >
        Run as Markdown
      </button>
      {final && final.type === 'final' && (
        <button
          type="button"
          className="small secondary"
          onClick={() =>
            downloadText(
              `${name}.sql`,
              sqlFileText(final.sql, {
                database: run.dbName,
                question: run.question,
                exportedAt: new Date().toISOString(),
                subQuestions: plan && plan.type === 'plan' ? plan.plan.sub_questions.map((q) => q.text) : [],
              }),
              'application/sql',
            )
          }
        >
          SQL file
        </button>
      )}
    </span>
  );
}

/** Opens an exported run JSON and shows it (read-only) in place of the current run. */
export function ImportRunButton({ dbId }: { dbId: string }) {
  const input = useRef<HTMLInputElement>(null);
  const services = useServices();
  const notify = useApp((s) => s.notify);
  const setRun = useAsk((s) => s.setRun);
  const setThread = useAsk((s) => s.setThread);
  const [reading, setReading] = useState(false);
  const onFile = async (file: File) => {
    // Refused by its size before a byte is read; an accepted file is parsed in a worker.
    const refusal = sizeRefusal(file, RUN_FILE_LIMIT);
    if (refusal) return notify('error', `Could not open "${file.name}": ${refusal}.`);
    setReading(true);
    try {
      const { earlier = [], ...r } = await services.parseFiles.runFile(file);
      const threadId = `imported-${Date.now().toString(36)}`;
      const turn = (t: typeof r | (typeof earlier)[number], i: number) => ({
        ...t,
        id: `${threadId}-${i}`,
        threadId,
        turn: i,
        dbId,
        dbName: r.dbName,
        provider: r.provider,
        model: r.model,
        status: t.status === 'done' ? ('done' as const) : ('failed' as const),
        streaming: '',
        imported: true,
      });
      setThread(dbId, earlier.map(turn));
      setRun(dbId, { ...turn(r, earlier.length), id: threadId });
    } catch (e) {
      notify('error', `Could not open "${file.name}": ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setReading(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className="link small"
        disabled={reading}
        aria-busy={reading}
        onClick={() => input.current?.click()}
      >
        {reading ? 'Reading the run file…' : 'open a saved run (a .json from Export)'}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        accept=".json,application/json"
        data-testid="run-import"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void onFile(f);
          e.target.value = '';
        }}
      />
    </>
  );
}
