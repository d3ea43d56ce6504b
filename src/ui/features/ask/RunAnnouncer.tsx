import { useEffect, useRef, useState } from 'react';
import { announcementsSince } from '../../lib/run-announcements';
import type { AskRun } from '../../store/ask-store';

/**
 * A polite live region that says what the run does as it streams: the plan, each step's tool
 * and outcome, where the answer is. It exists before the first text, so screen readers read it.
 */
/** Messages kept in the region: enough for a burst of steps, few enough to stay small. */
const KEEP = 4;

export function RunAnnouncer({ run }: { run: AskRun | undefined }) {
  // Added, never written over: the plan must not be replaced by the next step 20 ms later.
  const [messages, setMessages] = useState<Array<{ id: number; text: string }>>([]);
  const say = (text: string) => setMessages((m) => [...m, { id: (m.at(-1)?.id ?? 0) + 1, text }].slice(-KEEP));
  const seen = useRef<{ id?: string; count: number }>({ count: 0 });
  useEffect(() => {
    if (!run) return;
    if (seen.current.id !== run.id) {
      // A run loaded from History or a file is not news; a new run is.
      seen.current = { id: run.id, count: run.status === 'running' ? 0 : run.events.length };
      if (run.status === 'running')
        say(run.turn ? `Follow-up ${run.turn}, working on: ${run.question}` : `Working on: ${run.question}`);
    }
    const news = announcementsSince(run.events, seen.current.count);
    seen.current.count = run.events.length;
    if (news.length) say(news.join(' '));
  }, [run]);
  return (
    <div className="visually-hidden" aria-live="polite" aria-relevant="additions" data-testid="run-announcer">
      {messages.map((m) => (
        <p key={m.id}>{m.text}</p>
      ))}
    </div>
  );
}
