import { useEffect, useRef, useState } from 'react';
import { PRIVACY_LEVELS, type PrivacyLevel } from '../../../core/privacy/disclose';
import { answerPrivacyChoice } from '../../actions/privacy';
import { usePrivacy } from '../../store/privacy-store';
import { PRIVACY_CHOICES } from './privacy-text';

/** First use of a cloud model server: the run waits until the person says what may leave the browser. */
export function PrivacyChoice() {
  const choosing = usePrivacy((s) => s.choosing);
  const [level, setLevel] = useState<PrivacyLevel>('matches');
  // A modal dialog of the browser's own: the page behind is inert, the focus moves in (and back
  // where it was when the dialog closes), and Escape cancels.
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (!choosing || !el || el.open) return;
    if (typeof el.showModal === 'function') el.showModal();
    else el.setAttribute('open', '');
    return () => {
      if (el.open) el.close();
    };
  }, [choosing]);
  if (!choosing) return null;
  return (
    <dialog
      ref={dialog}
      className="value-dialog privacy-dialog"
      aria-label="What may leave the browser"
      onCancel={(e) => {
        e.preventDefault();
        answerPrivacyChoice(null);
      }}
    >
      <h3>What may this model server see of your data?</h3>
      <p className="small">
        {choosing.target.split(' ')[1]} is not on this computer. Your question, table and column names always go to it;
        choose what of the file's cell values may go too. You can change this in Settings.
      </p>
      <fieldset className="plain">
        {PRIVACY_LEVELS.map((l) => (
          <label key={l} className="check">
            <input type="radio" name="privacy-first" checked={level === l} onChange={() => setLevel(l)} />
            <span>
              <b>{PRIVACY_CHOICES[l].title}</b> — {PRIVACY_CHOICES[l].text}
            </span>
          </label>
        ))}
      </fieldset>
      <span className="row gap">
        <button type="button" onClick={() => answerPrivacyChoice(level)}>
          Continue with {PRIVACY_CHOICES[level].title.toLowerCase()}
        </button>
        <button type="button" className="secondary" onClick={() => answerPrivacyChoice(null)}>
          Cancel
        </button>
      </span>
    </dialog>
  );
}
