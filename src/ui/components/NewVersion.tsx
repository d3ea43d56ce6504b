import { useState } from 'react';
import { reloadToNewVersion } from '../actions/reload';
import { useUpdate } from '../store/update-store';

/**
 * A newer build of the app is installed (decision 067): a notice among the others, which stays
 * until the person reloads or dismisses it. The page is never reloaded for them.
 */
export function UpdateNotice() {
  const shown = useUpdate((s) => s.newVersion !== null && !s.dismissed);
  const dismiss = useUpdate((s) => s.dismiss);
  if (!shown) return null;
  return (
    <div className="notice update-notice" data-testid="update-notice">
      <span>A new version of Dowser is ready.</span>
      <span className="row gap">
        <ReloadButton />
        <button type="button" className="link dismiss" aria-label="Dismiss" onClick={dismiss} />
      </span>
    </div>
  );
}

/**
 * Where a part of the page loaded on demand could not be fetched (lib/chunk-error.ts): the server
 * has a newer build, so "Try again" cannot work; a reload into that build does.
 */
export function NewVersionNeeded({ subject }: { subject: string }) {
  return (
    <>
      <p>
        {subject} could not be loaded: a new version of Dowser was deployed since this page was opened. Reload to use
        it; your open files are kept.
      </p>
      <ReloadButton />
    </>
  );
}

function ReloadButton() {
  const [reloading, setReloading] = useState(false);
  return (
    <button
      type="button"
      className="small"
      disabled={reloading}
      title="Reloads the page with the new version; your open files are kept"
      onClick={() => {
        setReloading(true);
        // Back to clickable only if the reload did not happen (the person declined it).
        void reloadToNewVersion().finally(() => setReloading(false));
      }}
    >
      Reload
    </button>
  );
}
