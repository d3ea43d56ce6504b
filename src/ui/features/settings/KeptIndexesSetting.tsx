// Whether a file's search indexes are kept in this browser for its next opening (issue 26), and
// a way to remove those kept. They hold the values of the file's text columns: said plainly.

import { useState } from 'react';
import { describeError } from '../../../core/errors';
import { useServices } from '../../services/context';
import { useApp } from '../../store/app-store';

export function KeptIndexesSetting() {
  const keep = useApp((s) => s.settings.keepIndexes);
  const update = useApp((s) => s.updateSettings);
  const services = useServices();
  const [status, setStatus] = useState<string | null>(null);
  return (
    <div className="setting-group">
      <label className="check">
        <input type="checkbox" checked={keep} onChange={(e) => update({ keepIndexes: e.target.checked })} />
        Keep the search indexes of large files in this browser, so opening the same file again needs no new build. They
        hold the values of its text columns and never leave this device.
      </label>
      <button
        type="button"
        className="small"
        onClick={() => {
          setStatus('Removing…');
          services.forgetKeptIndexes().then(
            () => setStatus('The kept indexes were removed.'),
            (e) => setStatus(`The kept indexes could not be removed: ${describeError(e)}`),
          );
        }}
      >
        Forget kept indexes
      </button>
      {status && (
        <span className="small" role="status">
          {' '}
          {status}
        </span>
      )}
    </div>
  );
}
