import { useEffect } from 'react';
import { useApp, type Notice } from '../store/app-store';

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
      <div className="notices-list">
        {shownNotices.map((n) => (
          <NoticeItem key={n.id} notice={n} />
        ))}
      </div>
      {/* What a screen reader hears: the messages alone, never a Dismiss button's "×". The live
          regions exist before their text arrives, or screen readers do not read them. */}
      <div className="visually-hidden" aria-live="polite" aria-relevant="additions" data-testid="notices-said">
        {shownNotices
          .filter((n) => n.level !== 'error')
          .map((n) => (
            <p key={n.id}>{n.message}</p>
          ))}
      </div>
      <div className="visually-hidden" role="alert" aria-relevant="additions" data-testid="errors-said">
        {shownNotices
          .filter((n) => n.level === 'error')
          .map((n) => (
            <p key={n.id}>{n.message}</p>
          ))}
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
    <div className={`notice notice-${n.level}`} data-testid={`notice-${n.level}`}>
      <span>{n.message}</span>
      <button type="button" className="link" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
        ×
      </button>
    </div>
  );
}
