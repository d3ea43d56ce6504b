import { useAnnounce } from '../store/announce-store';

/**
 * The page's polite live region for finished work (store/announce-store.ts). It is on the page
 * from the start, empty, since screen readers only read regions that exist before their text.
 */
export function Announcer() {
  const messages = useAnnounce((s) => s.messages);
  return (
    <div className="visually-hidden" aria-live="polite" aria-relevant="additions" data-testid="page-announcer">
      {messages.map((m) => (
        <p key={m.id}>{m.text}</p>
      ))}
    </div>
  );
}
