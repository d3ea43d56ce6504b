import { useRef, useState } from 'react';
import { importDescriptionFiles } from '../../actions/descriptions';

/** Picks BIRD-style `database_description/<table>.csv` files (one per table, named after it). */
export function ImportDescriptions({ dbId }: { dbId: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const picked = async (files: File[]) => {
    setBusy(true);
    try {
      await importDescriptionFiles(dbId, files);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="small secondary"
        disabled={busy}
        aria-busy={busy}
        onClick={() => input.current?.click()}
        title="Column descriptions as BIRD writes them: one <table>.csv per table (original_column_name, column_name, column_description, data_format, value_description)"
      >
        {busy ? 'Reading the files…' : 'Import descriptions…'}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        accept=".csv,text/csv"
        data-testid="descriptions-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length) void picked(files);
        }}
      />
    </>
  );
}
