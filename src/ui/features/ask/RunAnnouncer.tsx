import { useEffect, useRef, useState } from 'react';
import { announcementsSince } from '../../lib/run-announcements';
import type { AskRun } from '../../store/ask-store';
import { appended, type Announcement } from '../../store/announce-store';
import { LiveMessages } from '../../components/Announcer';

/** Messages kept in the region: enough for a burst of steps, few enough to stay small. */
const KEEP = 4;

/**
 * A polite live region that says what the run does as it streams: the plan, each step's tool
 * and outcome, where the answer is. It exists before the first text, so screen readers read it.
 */
export function RunAnnouncer({ run }: { run: AskRun | undefined }) {
  // Added, never written over: the plan must not be replaced by the next step 20 ms later.
  const [messages, setMessages] = useState<Announcement[]>([]);
  const say = (text: string) => setMessages((m) => appended(m, text, KEEP));
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
  return <LiveMessages messages={messages} testId="run-announcer" />;
}
