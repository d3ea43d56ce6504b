import { useAnnounce, type Announcement } from '../store/announce-store';

/**
 * The page's polite live region for finished work (store/announce-store.ts). It is on the page
 * from the start, empty, since screen readers only read regions that exist before their text.
 */
export function Announcer() {
  const messages = useAnnounce((s) => s.messages);
  return <LiveMessages messages={messages} testId="page-announcer" />;
}

/** A polite live region whose messages are added as new nodes, so each is read once. */
export function LiveMessages({ messages, testId }: { messages: readonly Announcement[]; testId: string }) {
  return (
    <div className="visually-hidden" aria-live="polite" aria-relevant="additions" data-testid={testId}>
      {messages.map((m) => (
        <p key={m.id}>{m.text}</p>
      ))}
    </div>
  );
}
