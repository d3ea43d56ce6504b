import { useEffect } from 'react';
import { useApp, type Notice } from '../store/app-store';
import { UpdateNotice } from './NewVersion';

/** How long an info notice stays before it fades; warnings and errors stay until dismissed. */
export const INFO_NOTICE_MS = 6000;

/**
 * Messages about files and queries, text only, in a corner over the page (they never push the
 * work area down). Only the active database's notices and the page's own are shown.
 */
export function Notices() {
  const activeId = useApp((s) => s.activeId);
  const notices = useApp((s) => s.notices);
  const shownNotices = notices.filter((n) => n.dbId === null || n.dbId === activeId);
  return (
    <div className="notices" role="region" aria-label="Notices">
      {/* A live region must exist before its text arrives for screen readers to read it. */}
      <div aria-live="polite" className="notices-list">
        {shownNotices.map((n) => (
          <NoticeItem key={n.id} notice={n} />
        ))}
        <UpdateNotice />
      </div>
    </div>
  );
}

function NoticeItem({ notice: n }: { notice: Notice }) {
  const dismiss = useApp((s) => s.dismiss);
  useEffect(() => {
    if (n.level !== 'info') return;
    const timer = setTimeout(() => dismiss(n.id), INFO_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [n.id, n.level, dismiss]);
  return (
    <div
      className={`notice notice-${n.level}`}
      data-testid={`notice-${n.level}`}
      role={n.level === 'error' ? 'alert' : undefined}
    >
      <span>{n.message}</span>
      {/* The × is drawn by CSS, not text: a screen reader reading the notice hears the message,
          not "times" (issue 25); the button is named Dismiss. */}
      <button type="button" className="link dismiss" aria-label="Dismiss" onClick={() => dismiss(n.id)} />
    </div>
  );
}
