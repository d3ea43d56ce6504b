import { useEffect, useState } from 'react';
import type { WholeValue } from '../../../core/engine';
import { WHOLE_VALUE_MAX } from '../../../core/db/result-budget';
import { describeError } from '../../../core/errors';
import { baseName, downloadText } from '../../lib/download';
import { formatBytes, formatCount, shown } from '../../lib/format';
import { DISPLAY_CHARS, type OpenedCell } from './ResultsGrid';

/** Clipboards choke long before downloads do: above this, only "Save" is offered. */
const COPY_MAX_CHARS = 16 * 1024 * 1024;

/**
 * One value of the result, whole: its size, and Copy / Save as file. The value is read from the
 * worker only when asked for (it may be hundreds of megabytes), and never rendered.
 */
export function ValueDialog({
  cell,
  dbName,
  load,
  onClose,
}: {
  cell: OpenedCell;
  dbName: string;
  load: () => Promise<WholeValue>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState<null | 'copy' | 'save'>(null);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const act = async (kind: 'copy' | 'save') => {
    setBusy(kind);
    setMessage(null);
    try {
      const whole = await load();
      const note = whole.cut
        ? ` Only the first ${formatCount(WHOLE_VALUE_MAX)} could be read: more than a page can hold.`
        : '';
      if (kind === 'copy') {
        await navigator.clipboard.writeText(String(whole.value));
        setMessage(`Copied ${formatCount(String(whole.value).length)} characters.${note}`);
      } else {
        const name = `${baseName(dbName)}-row${cell.index + 1}-${baseName(cell.columnName)}.${cell.kind === 'blob' ? 'bin' : 'txt'}`;
        const body = whole.value instanceof Uint8Array ? new Uint8Array(whole.value) : String(whole.value);
        downloadText(name, body, cell.kind === 'blob' ? 'application/octet-stream' : 'text/plain;charset=utf-8');
        setMessage(`Saved as ${name}.${note}`);
      }
    } catch (e) {
      setMessage(
        kind === 'copy'
          ? `Could not copy: ${describeError(e)}. Try "Save as file".`
          : `Could not save: ${describeError(e)}`,
      );
    } finally {
      setBusy(null);
    }
  };

  const size = cell.kind === 'blob' ? formatBytes(cell.length) : `${formatCount(cell.length)} characters`;
  return (
    <div className="value-dialog" role="dialog" aria-modal="true" aria-label="Whole value">
      <h3>
        Row {formatCount(cell.index + 1)}, column “{shown(cell.columnName)}”
      </h3>
      <p data-testid="value-size">
        {cell.kind === 'blob' ? 'Blob' : 'Text'} of {size}.{' '}
        {cell.kind === 'text' && cell.length > DISPLAY_CHARS
          ? `The grid shows the first ${formatCount(DISPLAY_CHARS)} characters.`
          : ''}
      </p>
      <div className="row gap">
        {cell.kind === 'text' && (
          <button
            type="button"
            onClick={() => void act('copy')}
            disabled={busy !== null || cell.length > COPY_MAX_CHARS}
            title={cell.length > COPY_MAX_CHARS ? 'Too long for the clipboard: save it as a file' : undefined}
          >
            {busy === 'copy' ? 'Copying…' : 'Copy'}
          </button>
        )}
        <button type="button" onClick={() => void act('save')} disabled={busy !== null}>
          {busy === 'save' ? 'Saving…' : 'Save as file'}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {message && (
        <p className="small" role="status">
          {message}
        </p>
      )}
    </div>
  );
}
