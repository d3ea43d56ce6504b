// The conversation's parts around the current run (issue 23): the turns asked after an earlier
// one that was answered again, and the conversation brought back after a reload.

import { useEffect } from 'react';
import { ask } from '../../actions/ask';
import { shown } from '../../lib/format';
import { getServices } from '../../services/current';
import { useAsk, type AskRun } from '../../store/ask-store';
import { useAskMode } from './AskModeSwitch';

/** Turns that followed an answer since answered again: each can be asked again on the new one. */
export function LaterTurns({ dbId, turns, disabled }: { dbId: string; turns: AskRun[]; disabled: boolean }) {
  const mode = useAskMode();
  const again = (t: AskRun) => {
    const rest = turns.filter((x) => x !== t);
    const s = useAsk.getState();
    s.setThread(dbId, s.threads[dbId] ?? [], rest);
    void ask(dbId, t.question, t.hints, { mode, followUp: true });
  };
  return (
    <section className="card later-turns" data-testid="later-turns" aria-label="Asked after an earlier answer">
      <p className="small muted">
        These questions followed the earlier answer you changed, so they built on it. Ask one again to follow up on the
        new answer.
      </p>
      <ul>
        {turns.map((t) => (
          <li key={t.id}>
            <span>{shown(t.question)}</span>{' '}
            <button type="button" className="link small" disabled={disabled} onClick={() => again(t)}>
              Ask again
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * After a reload, the last conversation on this database comes back from the run history: its
 * turns in order, the last one as the current run. Only when nothing is on screen yet.
 */
export function useRestoredThread(dbId: string, dbName: string | undefined) {
  useEffect(() => {
    if (!dbName || useAsk.getState().runs[dbId]) return;
    let live = true;
    void getServices()
      .runHistory.list(dbName)
      .then((runs) => {
        const newest = runs[0];
        if (!live || !newest?.threadId || useAsk.getState().runs[dbId] || newest.status === 'running') return;
        // Per place, the newest answer (an earlier turn may have been answered again); places after
        // the newest run's held turns built on an answer since changed: they come back apart.
        const byTurn = new Map<number, AskRun>();
        for (const r of runs) {
          if (r.threadId !== newest.threadId || r.status === 'running') continue;
          const at = r.turn ?? 0;
          if ((byTurn.get(at)?.startedAt ?? -1) < r.startedAt) byTurn.set(at, r);
        }
        const ordered = [...byTurn.entries()].sort(([a], [b]) => a - b).map(([, r]) => ({ ...r, dbId }));
        const last = newest.turn ?? 0;
        const s = useAsk.getState();
        s.setThread(
          dbId,
          ordered.filter((r) => (r.turn ?? 0) < last),
          ordered.filter((r) => (r.turn ?? 0) > last).map((r) => ({ ...r, stale: true })),
        );
        s.setRun(
          dbId,
          ordered.find((r) => (r.turn ?? 0) === last),
        );
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [dbId, dbName]);
}
