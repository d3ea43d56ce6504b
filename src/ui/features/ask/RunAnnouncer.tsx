import { useEffect, useRef, useState } from 'react';
import { announcementsSince } from '../../lib/run-announcements';
import type { AskRun } from '../../store/ask-store';

/**
 * A polite live region that says what the run does as it streams: the plan, each step's tool
 * and outcome, where the answer is. It exists before the first text, so screen readers read it.
 */
export function RunAnnouncer({ run }: { run: AskRun | undefined }) {
  const [text, setText] = useState('');
  const seen = useRef<{ id?: string; count: number }>({ count: 0 });
  useEffect(() => {
    if (!run) return;
    if (seen.current.id !== run.id) {
      // A run loaded from History or a file is not news; a new run is.
      seen.current = { id: run.id, count: run.status === 'running' ? 0 : run.events.length };
      if (run.status === 'running')
        setText(run.turn ? `Follow-up ${run.turn}, working on: ${run.question}` : `Working on: ${run.question}`);
    }
    const news = announcementsSince(run.events, seen.current.count);
    seen.current.count = run.events.length;
    if (news.length) setText(news.join(' '));
  }, [run]);
  return (
    <div className="visually-hidden" aria-live="polite" data-testid="run-announcer">
      {text}
    </div>
  );
}
