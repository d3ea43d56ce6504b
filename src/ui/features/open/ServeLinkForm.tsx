import { useState } from 'react';
import { connectServeLink } from '../../actions/open-served';

/** Where a database on a server comes in (issue 36): the link `dowser serve` prints, pasted. */
export function ServeLinkForm({ onDone }: { onDone?: () => void }) {
  const [link, setLink] = useState('');
  return (
    <form
      className="serve-link"
      onSubmit={(e) => {
        e.preventDefault();
        if (!link.trim()) return;
        onDone?.();
        void connectServeLink(link.trim());
        setLink('');
      }}
    >
      <h2>A database on a server</h2>
      <p className="muted small">
        Run <code>dowser serve --db postgres://user@host/database</code> (or a SQLite file on that machine) and open the
        link it prints, or paste it here. Your model is still called from this page.
      </p>
      <label>
        dowser serve link
        <input
          type="url"
          value={link}
          spellCheck={false}
          autoComplete="off"
          placeholder="http://localhost:5173/#serve=…&token=…"
          onChange={(e) => setLink(e.target.value)}
        />
      </label>
      <button type="submit" disabled={!link.trim()}>
        Connect
      </button>
    </form>
  );
}
