import { useState } from 'react';
import { shownLines } from '../../lib/format';

/** A column's note (the user's words) and imported description, each cut to a few lines. */
export function ColumnGlossary({ note, imported }: { note: string; imported: string }) {
  if (!note && !imported) return null;
  return (
    <div className="col-glossary">
      {note && (
        <p className="col-note" title={shownLines(note)}>
          <span className="col-note-label">Note</span>
          {shownLines(note)}
        </p>
      )}
      {imported && (
        <p className="col-desc" title={shownLines(imported)}>
          {shownLines(imported)}
        </p>
      )}
    </div>
  );
}

/** Inline note editor: Ctrl+Enter (⌘+Enter) saves, Escape cancels; an empty note removes it. */
export function NoteEditor({
  label,
  initial,
  onSave,
  onCancel,
}: {
  label: string;
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  return (
    <div className="note-editor">
      <textarea
        aria-label={label}
        value={text}
        rows={2}
        maxLength={1000}
        autoFocus
        placeholder="What this column means, its units, its codes…"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            onSave(text);
          }
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <div className="row gap">
        <button type="button" className="small" onClick={() => onSave(text)}>
          Save
        </button>
        <button type="button" className="small secondary" onClick={onCancel}>
          Cancel
        </button>
        <span className="muted small" title="Escape cancels">
          Ctrl+Enter saves
        </span>
      </div>
    </div>
  );
}
